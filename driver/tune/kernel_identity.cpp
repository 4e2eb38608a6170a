#include "driver/tune/kernel_identity.h"

namespace optiml::tune {

ResolvedKernel resolve_kernel(spec::Spec spec, const spec::TargetFlags& target,
                              const std::optional<std::string>& strategy) {
    spec.target = target;
    if (strategy) spec.budget.strategy = *strategy;
    KernelSources sources = scan_sources(spec);
    return {std::move(spec), std::move(sources), std::nullopt};
}

ResolvedKernel resolve_kernel(const std::filesystem::path& spec_file,
                              const std::filesystem::path& build_dir) {
    spec::Spec spec = spec::load_spec(spec_file);
    if (build_dir.empty()) return resolve_kernel(std::move(spec), {}, std::nullopt);
    DeclaredKernel build = declared_kernel(build_dir, spec_file);
    ResolvedKernel resolved = resolve_kernel(std::move(spec), build.target, build.strategy);
    resolved.build = std::move(build);
    return resolved;
}

}  // namespace optiml::tune
