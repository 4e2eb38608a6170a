#include "driver/tune/detail/throughput.h"

#include <algorithm>

namespace optiml::tune {
namespace {

double ms(const std::optional<double>& figure) {
    return figure.value_or(0.0);
}

}  // namespace

Throughput summarize_throughput(const search::Result& result, int gpus) {
    Throughput throughput;
    int compiles = 0;
    for (const search::TraceItem& item : result.trace) {
        const search::OutcomeDetails& d = item.outcome.details;
        throughput.compile_s += ms(d.compile_ms) / 1000.0;
        // Recordings from before streaming have no wait of their own: they waited for it all.
        throughput.compile_wait_s +=
            ms(d.compile_wait_ms ? d.compile_wait_ms : d.compile_ms) / 1000.0;
        if (d.compile_cached)
            ++throughput.image_cache_hits;
        else if (d.compile_ms)
            ++compiles;
        throughput.worker_s +=
            (ms(d.verify_ms) + ms(d.extra_sizes_verify_ms) + ms(d.timing_ms)) / 1000.0;
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
