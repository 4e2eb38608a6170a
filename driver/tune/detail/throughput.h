// How fast a tuning went, from its trace: evaluations and compiles a minute, the compile work
// (each candidate's own compile, on however many cores ran them), the time the GPU waited for
// compiles, and the time the workers spent verifying and timing, as a fraction of the wall time
// of the GPUs that took part. The worker's time includes its host-side comparisons, so that
// fraction bounds the GPU's busy time from above.
#pragma once

#include <nlohmann/json.hpp>

#include "driver/search/search.h"

namespace optiml::tune {

struct Throughput {
    double evaluations_per_minute = 0.0;
    double compiles_per_minute = 0.0;   // NVRTC runs (not the image cache's hits)
    int image_cache_hits = 0;           // candidates whose image was compiled before
    double compile_s = 0.0;             // the compiles' own times, summed (core-seconds)
    double compile_wait_s = 0.0;        // the GPU waiting for a compile to finish
    double worker_s = 0.0;              // verifying and timing, summed over the workers
    double compile_fraction = 0.0;      // compile_wait_s / wall
    double worker_busy_fraction = 0.0;  // worker_s / (wall x GPUs)
};

Throughput summarize_throughput(const search::Result& result, int gpus);

nlohmann::json to_json(const Throughput& throughput);

}  // namespace optiml::tune
