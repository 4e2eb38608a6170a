// How fast a tuning went, from its trace: evaluations a minute, the wall time spent compiling
// (batches compile in parallel; each variant carries its share) and the time the workers spent
// verifying and timing, as a fraction of the wall time of the GPUs that took part. The worker's
// time includes its host-side comparisons, so the fraction bounds the GPU's busy time from above.
#pragma once

#include <nlohmann/json.hpp>

#include "driver/search/search.h"

namespace optiml::tune {

struct Throughput {
    double evaluations_per_minute = 0.0;
    double compile_s = 0.0;             // wall time of the compile steps
    double worker_s = 0.0;              // verifying and timing, summed over the workers
    double compile_fraction = 0.0;      // compile_s / wall
    double worker_busy_fraction = 0.0;  // worker_s / (wall x GPUs)
};

Throughput summarize_throughput(const search::Result& result, int gpus);

nlohmann::json to_json(const Throughput& throughput);

}  // namespace optiml::tune
