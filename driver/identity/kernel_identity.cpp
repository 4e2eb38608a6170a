#include "driver/identity/kernel_identity.h"

namespace optiml::identity {

ResolvedKernel resolve_kernel(spec::Spec spec, const spec::TargetFlags& target,
                              const std::optional<std::string>& strategy) {
    spec.target = target;
    if (strategy) spec.budget.strategy = *strategy;
    KernelSources sources = scan_sources(spec);
    return {std::move(spec), std::move(sources), std::nullopt};
}

ResolvedKernel resolve_kernel(const DeclaredKernel& build) {
    ResolvedKernel resolved =
        resolve_kernel(spec::load_spec(build.spec), build.target, build.strategy);
    resolved.build = build;
    return resolved;
}

ResolvedKernel resolve_kernel(const std::filesystem::path& spec_file,
                              const std::filesystem::path& build_dir) {
    if (build_dir.empty()) return resolve_kernel(spec::load_spec(spec_file), {}, std::nullopt);
    return resolve_kernel(declared_kernel(build_dir, spec_file));
}

}  // namespace optiml::identity
