#include "driver/identity/compiler_choice.h"

#include <map>
#include <mutex>
#include <stdexcept>

#include "driver/compile/build_flags.h"
#include "driver/compile/image_cache.h"
#include "driver/identity/kernel_compile.h"

namespace optiml::identity {

std::string flag_needing_nvcc(const spec::TargetFlags& target) {
    if (target.relocatable) return "-rdc=true";
    for (const std::string& option : target.options)
        if (!compile::nvrtc_reproduces(option)) return option;
    return "";
}

CompilerChoice choose_compiler(const spec::Spec& spec, int arch, const ProbeImages& probes) {
    if (spec.compiler == "nvcc") return {compile::Backend::Nvcc, {}, {}};
    const std::string flag = flag_needing_nvcc(spec.target);
    if (spec.compiler == "nvrtc") {
        if (!flag.empty())
            throw std::invalid_argument(
                spec.file.string() +
                ": compiler: \"nvrtc\", but the target compiles the kernel "
                "with " +
                flag +
                ", which NVRTC does not reproduce; set \"compiler\" to \"auto\" "
                "or \"nvcc\" so that the variants are compiled as the target compiles the "
                "original");
        return {compile::Backend::Nvrtc, {}, {}};
    }
    if (!flag.empty()) return {compile::Backend::Nvcc, {}, flag};
    // The original as NVRTC would compile it, keyed by everything that compile sees but headers:
    // a build computes the key for each arch and then tunes, all with the same answer.
    const compile::CompileRequest original = make_compile_request(
        spec, spec.default_config(), arch, compile::Output::Cubin, compile::Backend::Nvrtc);
    const std::string key = compile::image_key(original, spec.file.string());
    static std::mutex mutex;
    static std::map<std::string, CompilerChoice> chosen;
    {
        const std::lock_guard lock(mutex);
        if (const auto it = chosen.find(key); it != chosen.end()) return it->second;
    }
    const compile::CompileResult nvrtc =
        probes.images ? probes.images->find_or_compile(
                            compile::image_key(original, probes.headers_digest), original)
                      : compile::compile(original);
    const CompilerChoice choice =
        nvrtc.ok ? CompilerChoice{} : CompilerChoice{compile::Backend::Nvcc, nvrtc.log, {}};
    const std::lock_guard lock(mutex);
    return chosen.emplace(key, choice).first->second;
}

}  // namespace optiml::identity
