#include "driver/tune/tune_spec.h"

#include "cache/store.h"
#include "driver/tune/gpu_lock.h"
#include "driver/tune/kernel_key.h"
#include "driver/tune/tuning.h"

namespace optiml::tune {

std::optional<std::string> tune_and_store(const SpecTuning& request, std::ostream& log) {
    const spec::Spec& spec = *request.spec;
    const KernelSources sources = scan_sources(spec);
    // The key a build with the same LLM configuration looks up (docs/caching.md).
    const cache::KeyInputs inputs = key_inputs(
        spec, sources, request.device.arch, llm_key_inputs(request.llm, request.budget.strategy));
    const std::string key = cache::compute_key(inputs);
    GpuLock lock;
    std::optional<cache::Entry> entry = run_tuning({&spec,
                                                    request.device,
                                                    request.allowed,
                                                    key,
                                                    key_summary(inputs),
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

}  // namespace optiml::tune
