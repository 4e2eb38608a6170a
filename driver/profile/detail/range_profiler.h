// Hardware counters of one kernel launch through CUPTI's Range Profiler (CUDA 13 has no legacy
// event/metric API). Auto ranges (each kernel launch is a range, so the range is the kernel's
// own time, not the host's launch latency around it) with user replay: OptiML runs each pass
// itself, preparing the buffers and evicting L2 before it, outside the profiled window.
// (With kernel replay CUPTI restores memory between passes and leaves that data dirty in L2: the
// kernel then pays its write-back, 20-35% extra DRAM writes against Nsight Compute.)
// Worker-only (CUDA).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <cuda.h>

namespace optiml::profile {

struct CounterCollection {
    bool permitted = true;  // false: the GPU refused (no profiling rights); values empty
    std::string note;       // why nothing was collected
    std::map<std::string, double> values;
    std::vector<std::string> unavailable;  // metric names this chip does not know
    int passes = 0;
};

// Before every pass `prepare` runs (and completes) outside the measured range; then `launch`
// enqueues the kernel once. Both return their CUDA result. Throws std::runtime_error for a
// CUPTI or CUDA failure other than missing profiling rights.
CounterCollection collect_counters(CUcontext context, CUdevice device,
                                   const std::vector<std::string>& metrics,
                                   const std::function<CUresult()>& prepare,
                                   const std::function<CUresult()>& launch);

}  // namespace optiml::profile
