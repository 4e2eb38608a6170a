// Which Range Profiler metrics OptiML collects, and how they become analysis::KernelCounters.
// The proxies are the OptiML paper's (SM, DRAM and L1/TEX throughput as % of peak, DRAM bytes,
// L1 sectors, instructions, achieved occupancy, FLOPs by precision); the pool adds counters that
// often explain run-time differences between variants, for counter selection.
#pragma once

#include <string>
#include <vector>

#include "driver/analysis/roofline.h"
#include "driver/profile/profile_protocol.h"

namespace optiml::profile {

const std::vector<std::string>& proxy_metrics();
const std::vector<std::string>& pool_metrics();  // the proxies first, then the rest

// FLOPs from SASS instruction counts: an FMA counts 2, an add or a multiply 1 (as Nsight
// Compute's roofline counts them; fp16 counts HFMA/HADD/HMUL instructions the same way).
std::map<std::string, double> flops_by_precision(const std::map<std::string, double>& counters);

// The run's counters for the roofline: `duration_s` is the measured time (the profiled run's
// gpu__time_duration when <= 0). Fields whose metric was not collected stay empty.
analysis::KernelCounters kernel_counters(const ProfileResult& result, double duration_s = 0.0);

}  // namespace optiml::profile
