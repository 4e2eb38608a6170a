#include "driver/tune/tune_spec.h"

#include "cache/store.h"
#include "driver/identity/kernel_identity.h"
#include "driver/identity/kernel_key.h"
#include "driver/spec/kernel_source.h"
#include "driver/tune/budget_rules.h"
#include "driver/tune/compare_build.h"
#include "driver/tune/detail/reference_check.h"
#include "driver/tune/device_selection.h"
#include "driver/tune/gpu_lock.h"
#include "driver/tune/llm_settings.h"
#include "driver/tune/tuning.h"

namespace optiml::tune {
namespace {

// --reference: the spec's kernel, at its defaults, against the reference before any tuning.
bool verified_against_reference(const spec::Spec& spec, const TuneOptions& options,
                                const measure::DeviceInfo& device, std::ostream& out,
                                std::ostream& err) {
    try {
        const Reference reference = read_reference(options.reference, options.reference_entry);
        const ReferenceVerdict verdict =
            verify_against_reference(spec, reference, device, options.host_compiler);
        if (!verdict.ok) {
            err << "optiml: error: " << spec.name << ": the kernel does not match the "
                << "reference " << options.reference.string() << " (" << reference.entry
                << "): " << verdict.describe() << "\n";
            return false;
        }
        out << "optiml: " << spec.name << ": verified against the reference "
            << options.reference.string() << " (" << reference.entry << ") on " << device.name
            << "\n";
        return true;
    } catch (const std::exception& e) {
        err << "optiml: error: " << e.what() << "\n";
        return false;
    }
}

}  // namespace

std::optional<std::string> tune_and_store(const SpecTuning& request, std::ostream& log) {
    const spec::Spec& spec = *request.spec;
    const identity::KernelSources sources = identity::scan_sources(spec);
    // The key a build with the same LLM configuration looks up (docs/caching.md).
    const cache::KeyInputs inputs = identity::key_inputs(
        spec, sources, request.device.arch, llm_key_inputs(request.llm, request.budget.strategy));
    const std::string key = cache::compute_key(inputs);
    GpuLock lock;
    std::optional<cache::Entry> entry = run_tuning({&spec,
                                                    request.device,
                                                    request.allowed,
                                                    key,
                                                    identity::key_summary(inputs),
                                                    request.budget,
                                                    request.host_compiler,
                                                    request.cache_root,
                                                    request.llm,
                                                    {}},
                                                   log);
    if (!entry) return std::nullopt;
    cache::Store store(request.cache_root);
    store.remove(key);  // an explicit tune replaces the previous result
    store.put(*entry);
    log << "optiml: stored " << key << " in " << store.root().string() << "\n";
    return key;
}

int run_tune(const TuneOptions& options, std::ostream& out, std::ostream& err) {
    spec::Spec spec;
    llm::LlmConfig llm_config;
    try {  // before any GPU work: a bad spec, build folder or LLM setting is found at once
        identity::ResolvedKernel kernel = identity::resolve_kernel(options.spec, options.build_dir);
        spec = std::move(kernel.spec);
        llm_config = build_llm_config(kernel, llm::resolve_config(options.llm));
    } catch (const std::exception& e) {
        err << "optiml: error: " << e.what() << "\n";
        return 1;
    }
    for (const std::string& warning : spec::default_mismatches(spec))
        err << "optiml: warning: " << spec.name << ": " << warning << "\n";
    const auto probe = measure::probe_devices(measure::default_worker_path());
    const auto& devices = probe.devices;
    if (options.device < 0 || static_cast<std::size_t>(options.device) >= devices.size()) {
        err << "optiml: error: no CUDA device " << options.device << " on this machine ("
            << devices.size() << " found"
            << (devices.empty() ? ": " + probe.why_none() : std::string()) << ")\n";
        return 2;
    }
    const auto& device = devices[static_cast<std::size_t>(options.device)];
    // --device times; OPTIML_DEVICES limits the GPUs of its model that verify beside it.
    std::vector<measure::DeviceInfo> allowed;
    try {
        allowed = allowed_devices(devices, device_list_from_environment());
    } catch (const DeviceListError& e) {
        err << "optiml: error: " << e.what() << "\n";
        return 1;
    }
    if (!options.reference.empty() && !verified_against_reference(spec, options, device, out, err))
        return 1;
    apply_budget_overrides(spec.budget, {{options.evaluations, options.seconds, options.strategy}});
    try {
        const SpecTuning request{
            &spec,
            device,
            allowed,
            search_budget(spec),
            options.host_compiler,
            options.cache_dir.empty() ? cache::default_cache_dir() : options.cache_dir,
            llm_config};
        return tune_and_store(request, out) ? 0 : 1;
    } catch (const CompareBuildError& e) {
        err << "optiml: error: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace optiml::tune
