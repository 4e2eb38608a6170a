#include "driver/tune/original_images.h"

#include <algorithm>

#include "driver/compile/compile_request.h"
#include "driver/spec/kernel_source.h"
#include "driver/tune/candidate_evaluator.h"
#include "driver/tune/compiler_choice.h"
#include "driver/tune/kernel_key.h"

namespace optiml::tune {

bool kernel_stays_in_its_file(const spec::Spec& spec, int arch) {
    return spec.compiler == "nvcc" || spec::main_definition_line(spec).has_value() ||
           choose_compiler(spec, arch).backend == compile::Backend::Nvcc;
}

std::vector<codegen::Variant> compile_originals(const spec::Spec& spec,
                                                const std::vector<int>& archs,
                                                std::vector<std::string>& problems) {
    if (archs.empty()) return {};
    const int highest = *std::max_element(archs.begin(), archs.end());
    std::vector<compile::CompileRequest> requests;
    for (const int arch : archs)
        requests.push_back(make_compile_request(spec, spec.default_config(), arch,
                                                compile::Output::Cubin, compile::Backend::Nvcc));
    requests.push_back(make_compile_request(spec, spec.default_config(), highest,
                                            compile::Output::Ptx, compile::Backend::Nvcc));
    const std::vector<compile::CompileResult> results = compile::compile_all(requests);

    std::vector<codegen::Variant> originals;
    for (std::size_t i = 0; i < archs.size(); ++i) {
        if (!results[i].ok) {
            problems.push_back(arch_name(archs[i]) +
                               ": the original does not compile with nvcc: " + results[i].log);
            continue;
        }
        codegen::Variant original;
        original.arch = arch_name(archs[i]);
        original.parameters = spec.default_config();
        original.lowered_name = results[i].lowered_name;
        original.cubin = results[i].binary;
        original.compiler = "nvcc";
        original.summary = "the original, compiled with the target's flags";
        if (archs[i] == highest && results.back().ok) original.ptx = results.back().binary;
        originals.push_back(std::move(original));
    }
    return originals;
}

}  // namespace optiml::tune
