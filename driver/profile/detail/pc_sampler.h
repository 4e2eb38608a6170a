// Stall reasons by source line through CUPTI PC sampling. The kernel's module must be loaded
// while sampling is enabled (so load it inside `run`), and its CUBIN must carry line info
// (NVRTC -lineinfo, which OptiML always passes) for PCs to map to lines. Worker-only (CUDA).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <cuda.h>

#include "driver/analysis/stalls.h"

namespace optiml::profile {

struct StallCollection {
    bool done = false;
    std::string note;  // why nothing was collected
    std::vector<analysis::StallSample> samples;
    std::uint64_t total_samples = 0;
    std::uint64_t dropped_samples = 0;
};

// `run` loads the module and launches the kernel (as often as it likes) while sampling is on;
// it returns the launch result. `cubin` is the loaded image, used to map PCs to source lines;
// only PCs of `function` (its lowered name) are kept. `period` is the sampling period's exponent
// (one sample per 2^period cycles per SM sub-partition). Throws std::runtime_error for a CUPTI
// failure other than missing rights.
// `serialized`: CUPTI's kernel-serialized collection; otherwise its continuous mode.
StallCollection sample_stalls(CUcontext context, const std::string& cubin,
                              const std::string& function, std::uint32_t period, bool serialized,
                              const std::function<CUresult()>& run);

// A period (exponent) that keeps one launch of a `kernel_ms` kernel on `sms` SMs under 200,000
// samples (a long kernel at a short period overflows the hardware buffer, and CUPTI then returns
// no data) and all `launches` near a million in total.
std::uint32_t sampling_period_for(double kernel_ms, int launches, int sms);

}  // namespace optiml::profile
