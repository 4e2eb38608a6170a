// The worker's warm timing (warm_plan.h): kernels launched back to back on one stream, timed in
// bursts between two events. Lives in the worker (it links the CUDA driver).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include <cuda.h>

#include "driver/measure/detail/warm_plan.h"

namespace optiml::measure {

// Rounds of bursts until warm_settled(): in each, every kernel k (the order reversed in odd
// rounds, as the cold runs alternate) gets one untimed launch, then `plan.burst` launches between
// two events. `launch(k)` enqueues one launch of kernel k on `stream`. per_launch_ms[k] gets one
// burst time / burst per round.
CUresult time_warm(CUstream stream, std::size_t kernels,
                   const std::function<CUresult(std::size_t)>& launch, const WarmPlan& plan,
                   std::vector<std::vector<double>>& per_launch_ms);

}  // namespace optiml::measure
