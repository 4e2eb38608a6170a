// A kernel as a given build compiles it: the one place every command that computes, stores or
// looks up a cache key starts from (`optiml build` from the target's compile command; `tune`,
// `cache key`, `profile` and `retune` from the build manifest that build wrote). Spec, target
// flags, the build's strategy override and LLM flags (tune/llm_settings.h reads them), and every
// file the compiler reads; kernel_key.h turns it into the key.
#pragma once

#include <filesystem>
#include <optional>

#include "driver/identity/build_manifest.h"
#include "driver/identity/kernel_key.h"
#include "driver/spec/spec.h"

namespace optiml::identity {

struct ResolvedKernel {
    spec::Spec spec;  // with the target's flags and the build's budget.strategy, if it gave one
    KernelSources sources;
    std::optional<DeclaredKernel> build;  // what the build declared, when resolved from one
};

// The spec under `target` (the build's flags), with `strategy` overriding budget.strategy.
ResolvedKernel resolve_kernel(spec::Spec spec, const spec::TargetFlags& target,
                              const std::optional<std::string>& strategy);

// The kernel a build declared, as that build compiled it (the spec file it names, its flags and
// strategy): what retune tunes.
ResolvedKernel resolve_kernel(const DeclaredKernel& build);

// `spec_file` as the build under `build_dir` compiles it (its build manifest); with no build_dir,
// as the spec alone compiles it (a kernel built without target flags). Throws spec::SpecError or
// BuildManifestError naming the file and what to do.
ResolvedKernel resolve_kernel(const std::filesystem::path& spec_file,
                              const std::filesystem::path& build_dir);

}  // namespace optiml::identity
