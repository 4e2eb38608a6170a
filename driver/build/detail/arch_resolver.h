// Internal to build/: one architecture's part of `optiml build`. Its entry from the caches
// (local, seeds, remote), else a tuning when the mode allows and a GPU of that architecture is
// here, else the entry tuned without the LLM; or, with none, why the original kernel stays.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "cache/build_cache.h"
#include "cache/entry_manifest.h"
#include "cache/store.h"
#include "driver/build/kernel_build.h"
#include "driver/compile/image_cache.h"
#include "driver/identity/build_manifest.h"
#include "driver/identity/kernel_key.h"
#include "driver/measure/worker_client.h"
#include "driver/spec/spec.h"

namespace optiml::build::detail {

struct ArchResult {
    std::optional<cache::Entry> entry;  // none: the original kernel
    cache::EntryManifest manifest;      // the entry's, read
    identity::DeclaredArch declared;    // for the build manifest
    std::string fallback_reason;        // without an entry: why
};

class ArchResolver {
  public:
    // Opens the caches (a bad remote URL or trusted-keys file throws, which stops the build).
    ArchResolver(const BuildOptions& options, const spec::Spec& spec,
                 const identity::KernelSources& sources, std::ostream& log);

    // Nullopt: the build must stop (the error is in the log: a bad $OPTIML_DEVICES, a comparison
    // function that does not compile).
    std::optional<ArchResult> resolve(int arch);

    const std::filesystem::path& cache_root() const { return caches_.local().root(); }
    // Whether a tuning ran, which compiled the spec's host functions (or stopped the build).
    bool tuning_ran() const { return tuning_ran_; }

  private:
    // The first GPU of `arch` that $OPTIML_DEVICES allows; probed on the first miss only. Throws
    // tune::DeviceListError.
    const measure::DeviceInfo* device_for(int arch);
    // Takes `found` as the result's entry with its manifest read; false, with a warning, when
    // this version cannot read it: a miss then, never a failed build.
    bool take(cache::Found& found, const std::string& tag, ArchResult& result);
    enum class Tuning { Stored, Failed, StopBuild };
    // Tunes on `device`; the new entry replaces `result.entry` and is stored.
    Tuning tune(const measure::DeviceInfo& device, const cache::KeyInputs& inputs,
                const std::string& key, const std::string& base_key,
                const cache::KeyInputs& base_inputs, const std::string& tag, ArchResult& result);

    const BuildOptions& options_;
    const spec::Spec& spec_;
    const identity::KernelSources& sources_;
    std::ostream& log_;
    cache::BuildCache caches_;
    // With an LLM taking part the key holds its model and prompts; the base key is that of the
    // same inputs without it (docs/caching.md, "The LLM").
    cache::LlmKeyInputs llm_;
    // The compiler choice's probe compiles once, not on every run (compiler_choice.h).
    compile::ImageCache images_;
    // `problem` set: the worker could not be used (not the same as "no GPU").
    std::optional<measure::DeviceProbe> probe_;
    bool tuning_ran_ = false;
};

}  // namespace optiml::build::detail
