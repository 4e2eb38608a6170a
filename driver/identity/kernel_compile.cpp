#include "driver/identity/kernel_compile.h"

#include "driver/base/read_file.h"
#include "driver/compile/kernel_symbol.h"
#include "driver/identity/compiler_choice.h"

namespace optiml::identity {

compile::CompileRequest request_of_text(const spec::Spec& spec,
                                        const std::map<std::string, std::int64_t>& config,
                                        std::string source_text, int arch, compile::Output output) {
    compile::CompileRequest request;
    request.source_text = std::move(source_text);
    request.source_name = spec.source.filename().string();
    request.name_expression = compile::expand_defines(spec.kernel, config);
    request.options = spec.nvrtc_options;
    request.include_dirs.push_back(spec.source.parent_path());
    for (const auto& dir : spec.include_dirs)
        request.include_dirs.push_back(spec.file.parent_path() / dir);
    request.include_dirs.insert(request.include_dirs.end(), spec.target.include_dirs.begin(),
                                spec.target.include_dirs.end());
    request.build_options = spec.target.options;
    request.relocatable = spec.target.relocatable;
    request.defines = config;
    request.arch = arch;
    request.output = output;
    return request;
}

compile::CompileRequest make_compile_request(const spec::Spec& spec,
                                             const std::map<std::string, std::int64_t>& config,
                                             int arch, compile::Output output) {
    return make_compile_request(spec, config, arch, output, choose_compiler(spec, arch).backend);
}

compile::CompileRequest make_compile_request(const spec::Spec& spec,
                                             const std::map<std::string, std::int64_t>& config,
                                             int arch, compile::Output output,
                                             compile::Backend backend) {
    compile::CompileRequest request =
        request_of_text(spec, config, base::read_file(spec.source), arch, output);
    request.backend = backend;
    return request;
}

}  // namespace optiml::identity
