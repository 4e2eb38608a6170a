#include "driver/build/detail/original_images.h"

#include <algorithm>
#include <map>

#include "driver/compile/compile_request.h"
#include "driver/identity/compiler_choice.h"
#include "driver/identity/kernel_key.h"
#include "driver/spec/kernel_source.h"
#include "driver/tune/candidate_evaluator.h"

namespace optiml::build {

bool kernel_stays_in_its_file(const spec::Spec& spec, int arch) {
    return spec.compiler == "nvcc" || spec::main_definition_line(spec).has_value() ||
           identity::choose_compiler(spec, arch).backend == compile::Backend::Nvcc;
}

std::vector<codegen::Variant> compile_originals(const spec::Spec& spec,
                                                const std::vector<int>& archs,
                                                std::vector<std::string>& problems) {
    if (archs.empty()) return {};
    const int highest = *std::max_element(archs.begin(), archs.end());
    // The spec's instantiation, and each other one whose block the drop-in form may be called
    // with (launcher.h, block_instances): the program's drop-in call sites name none of them.
    std::vector<std::map<std::string, std::int64_t>> instances = codegen::block_instances(spec);
    if (instances.empty()) instances.push_back(spec.default_config());
    std::vector<compile::CompileRequest> requests;
    for (const auto& instance : instances)
        for (const int arch : archs)
            requests.push_back(identity::make_compile_request(
                spec, instance, arch, compile::Output::Cubin, compile::Backend::Nvcc));
    requests.push_back(identity::make_compile_request(
        spec, instances.front(), highest, compile::Output::Ptx, compile::Backend::Nvcc));
    const std::vector<compile::CompileResult> results = compile::compile_all(requests);

    std::vector<codegen::Variant> originals;
    for (std::size_t n = 0; n < instances.size(); ++n)
        for (std::size_t a = 0; a < archs.size(); ++a) {
            const compile::CompileResult& result = results[n * archs.size() + a];
            if (!result.ok) {
                // Another instantiation that does not compile is refused at its launch, said
                // there; only the spec's own is a problem of the build.
                if (n == 0)
                    problems.push_back(identity::arch_name(archs[a]) +
                                       ": the original does not compile with nvcc: " + result.log);
                continue;
            }
            codegen::Variant original;
            original.arch = identity::arch_name(archs[a]);
            original.winner.parameters = instances[n];
            original.lowered_name = result.lowered_name;
            original.cubin = result.binary;
            original.compiler = "nvcc";
            original.summary = "the original, compiled with the target's flags";
            if (n == 0 && archs[a] == highest && results.back().ok)
                original.ptx = results.back().binary;
            originals.push_back(std::move(original));
        }
    return originals;
}

}  // namespace optiml::build
