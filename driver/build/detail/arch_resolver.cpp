#include "driver/build/detail/arch_resolver.h"

#include "driver/tune/budget_rules.h"
#include "driver/tune/compare_build.h"
#include "driver/tune/device_selection.h"
#include "driver/tune/gpu_lock.h"
#include "driver/tune/llm_settings.h"
#include "driver/tune/tuning.h"

namespace optiml::build::detail {

ArchResolver::ArchResolver(const BuildOptions& options, const spec::Spec& spec,
                           const identity::KernelSources& sources, std::ostream& log)
    : options_(options),
      spec_(spec),
      sources_(sources),
      log_(log),
      // Local cache, seeds, remote (docs/caching.md).
      caches_(
          {options.cache_dir, options.seeds,
           cache::remote_config(options.remote_cache, options.remote_cache_mode),
           options.trusted_keys},
          [&log](const std::string& message) { log << "optiml: warning: " << message << "\n"; }),
      llm_(tune::llm_key_inputs(options.llm, spec.budget.strategy)),
      images_(compile::image_cache_dir(caches_.local().root())) {}

const measure::DeviceInfo* ArchResolver::device_for(int arch) {
    if (!probe_) {
        probe_ = measure::probe_devices(measure::default_worker_path());
        probe_->devices =
            tune::allowed_devices(probe_->devices, tune::device_list_from_environment());
    }
    for (const auto& device : probe_->devices)
        if (device.arch == arch) return &device;
    return nullptr;
}

bool ArchResolver::take(cache::Found& found, const std::string& tag, ArchResult& result) {
    try {
        result.manifest = cache::read_entry_manifest(found.entry);
    } catch (const cache::CacheError& e) {
        log_ << tag << "warning: " << e.what() << "; treated as a miss\n";
        return false;
    }
    result.entry = std::move(found.entry);
    return true;
}

std::optional<ArchResult> ArchResolver::resolve(int arch) {
    const cache::KeyInputs inputs = identity::key_inputs(spec_, sources_, arch, llm_, &images_);
    const std::string key = cache::compute_key(inputs);
    const cache::KeyInputs base_inputs = identity::key_inputs(spec_, sources_, arch);
    const std::string base_key = cache::compute_key(base_inputs);
    const std::string name = identity::arch_name(arch);
    const std::string tag = "optiml: " + spec_.name + ": " + name + ": ";
    ArchResult result;
    std::string where;
    bool tuned_here = false;
    // Why this arch keeps the original kernel, should it end without an entry.
    result.fallback_reason = options_.mode == Mode::CacheOnly
                                 ? "OPTIML_MODE=cache-only"
                                 : "no GPU of that architecture to tune on";
    if (auto found = caches_.fetch(key); found && take(*found, tag, result))
        where = std::move(found->where);
    if (result.entry && options_.mode != Mode::Retune) {
        log_ << tag << "cache hit " << key.substr(0, 12) << " (" << where
             << "): " << tune::entry_summary(result.manifest) << "\n";
    } else if (options_.mode == Mode::Auto || options_.mode == Mode::Retune) {
        const measure::DeviceInfo* device = nullptr;
        try {  // only the GPUs $OPTIML_DEVICES allows, the first of this arch timing
            device = device_for(arch);
        } catch (const tune::DeviceListError& e) {
            log_ << "optiml: error: " << e.what() << "\n";
            return std::nullopt;
        }
        if (!probe_->problem.empty()) result.fallback_reason = "cannot tune: " + probe_->problem;
        if (device) {
            const Tuning tuning = tune(*device, inputs, key, base_key, base_inputs, tag, result);
            if (tuning == Tuning::StopBuild) return std::nullopt;
            tuned_here = tuning == Tuning::Stored;
        } else if (result.entry) {
            log_ << tag << "no GPU of this architecture to retune on; cache hit "
                 << key.substr(0, 12) << " (" << where << ") kept\n";
        }
    }
    if (!result.entry && key != base_key) {
        // Nothing tuned with this model, and no tuning here: the entry tuned without the LLM is
        // verified too, and better than the original kernel.
        if (auto found = caches_.fetch(base_key); found && take(*found, tag, result)) {
            where = std::move(found->where);
            log_ << tag << "no entry tuned with the LLM model '" << llm_.model << "' ("
                 << key.substr(0, 12) << "); cache hit " << base_key.substr(0, 12) << " (" << where
                 << ", tuned without it): " << tune::entry_summary(result.manifest) << "\n";
        }
    }
    result.declared = {name, result.entry ? result.entry->key : key,
                       !result.entry ? "original"
                       : tuned_here  ? "tuned"
                                     : "hit",
                       result.entry && !tuned_here ? where : ""};
    return result;
}

ArchResolver::Tuning ArchResolver::tune(const measure::DeviceInfo& device,
                                        const cache::KeyInputs& inputs, const std::string& key,
                                        const std::string& base_key,
                                        const cache::KeyInputs& base_inputs, const std::string& tag,
                                        ArchResult& result) {
    log_ << tag << (result.entry ? "retuning " : "cache miss ") << key.substr(0, 12) << "; tuning\n"
         << std::flush;
    tune::GpuLock lock;
    tuning_ran_ = true;
    std::optional<cache::Entry> tuned;
    std::string failure;
    try {
        tuned =
            tune::run_tuning({&spec_, device, probe_->devices, key, identity::key_summary(inputs),
                              tune::search_budget(spec_), options_.host_compiler,
                              caches_.local().root(), options_.llm, options_.seeds},
                             log_, &failure);
    } catch (const tune::CompareBuildError& e) {
        log_ << "optiml: error: " << e.what() << "\n";
        return Tuning::StopBuild;
    }
    if (!tuned) {
        if (!result.entry)
            result.fallback_reason =
                "tuning on " + device.name + " failed: " + failure + " (details above)";
        return Tuning::Failed;
    }
    result.entry = std::move(tuned);
    result.manifest = cache::read_entry_manifest(*result.entry);
    if (caches_.store(*result.entry))  // locally; signed to a read-write remote
        log_ << tag << "published " << key.substr(0, 12) << " to the remote cache\n";
    // Builds without the endpoint get it too, unless they have their own.
    if (key != base_key && !caches_.fetch(base_key))
        caches_.store(identity::llm_entry_for_base_key(*result.entry, base_key,
                                                       identity::key_summary(base_inputs)));
    return Tuning::Stored;
}

}  // namespace optiml::build::detail
