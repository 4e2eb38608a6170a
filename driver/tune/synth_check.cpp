#include "driver/tune/detail/synth_check.h"

#include <fstream>

#include "driver/compile/compile_request.h"
#include "driver/spec/spec.h"
#include "driver/tune/candidate_evaluator.h"

namespace optiml::tune {

SynthFiles write_synth_files(const std::filesystem::path& dir, const std::string& name,
                             const std::string& kernel, nlohmann::json spec) {
    std::filesystem::create_directories(dir);
    SynthFiles files{dir / (name + ".cu"), dir / (name + ".optiml.json")};
    spec["name"] = name;
    spec["source"] = files.kernel.filename().string();
    std::ofstream(files.kernel, std::ios::binary | std::ios::trunc) << kernel;
    std::ofstream(files.spec, std::ios::binary | std::ios::trunc) << spec.dump(2) << "\n";
    return files;
}

std::string synth_problem(const std::filesystem::path& dir, const std::string& name,
                          const std::string& kernel, const nlohmann::json& spec, int arch) {
    if (kernel.find("#include") != std::string::npos)
        return "the kernel has an #include; write it self-contained (device code only, no "
               "#include)";
    const SynthFiles files = write_synth_files(dir, name, kernel, spec);
    spec::Spec loaded;
    try {
        loaded = spec::load_spec(files.spec);
    } catch (const spec::SpecError& e) {
        // The model needs the field and the fix, not where this machine keeps the file.
        std::string message = e.what();
        for (std::size_t at = message.find(files.spec.string()); at != std::string::npos;
             at = message.find(files.spec.string()))
            message.replace(at, files.spec.string().size(), files.spec.filename().string());
        return "the spec is invalid: " + message;
    }
    // As the tuning compiles it: at the spec's default parameters, with its options.
    compile::CompileRequest request = identity::make_compile_request(
        loaded, loaded.default_config(), arch, compile::Output::Cubin, compile::Backend::Nvrtc);
    request.source_name = files.kernel.filename().string();  // the model sees no local path
    const compile::CompileResult result = compile::compile(request);
    if (!result.ok) return "NVRTC could not compile the kernel:\n" + result.log;
    return {};
}

}  // namespace optiml::tune
