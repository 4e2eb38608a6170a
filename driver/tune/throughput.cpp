#include "driver/tune/detail/throughput.h"

#include <algorithm>

namespace optiml::tune {
namespace {

double detail(const search::Outcome& outcome, const char* name) {
    const auto found = outcome.details.find(name);
    return found == outcome.details.end() ? 0.0 : found->second;
}

}  // namespace

Throughput summarize_throughput(const search::Result& result, int gpus) {
    Throughput throughput;
    int compiles = 0;
    for (const search::TraceItem& item : result.trace) {
        throughput.compile_s += detail(item.outcome, "compile_ms") / 1000.0;
        // Recordings from before streaming have no wait of their own: they waited for it all.
        throughput.compile_wait_s += (item.outcome.details.contains("compile_wait_ms")
                                          ? detail(item.outcome, "compile_wait_ms")
                                          : detail(item.outcome, "compile_ms")) /
                                     1000.0;
        if (detail(item.outcome, "compile_cached") != 0.0)
            ++throughput.image_cache_hits;
        else if (item.outcome.details.contains("compile_ms"))
            ++compiles;
        throughput.worker_s +=
            (detail(item.outcome, "verify_ms") + detail(item.outcome, "extra_sizes_verify_ms") +
             detail(item.outcome, "timing_ms")) /
            1000.0;
    }
    if (result.wall_s > 0.0) {
        throughput.evaluations_per_minute =
            static_cast<double>(result.trace.size()) * 60.0 / result.wall_s;
        throughput.compiles_per_minute = static_cast<double>(compiles) * 60.0 / result.wall_s;
        throughput.compile_fraction = throughput.compile_wait_s / result.wall_s;
        throughput.worker_busy_fraction =
            throughput.worker_s / (result.wall_s * static_cast<double>(std::max(1, gpus)));
    }
    return throughput;
}

nlohmann::json to_json(const Throughput& t) {
    return {{"evaluations_per_minute", t.evaluations_per_minute},
            {"compiles_per_minute", t.compiles_per_minute},
            {"image_cache_hits", t.image_cache_hits},
            {"compile_s", t.compile_s},
            {"compile_wait_s", t.compile_wait_s},
            {"worker_s", t.worker_s},
            {"compile_fraction", t.compile_fraction},
            {"worker_busy_fraction", t.worker_busy_fraction}};
}

}  // namespace optiml::tune
