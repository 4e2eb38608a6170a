// The flat names the tree's reward and the judge read (search::Metrics), from an evidence
// report's counters, and the diagnosis as the tree names it. docs/transformations.md lists them.
#pragma once

#include <string>

#include "driver/analysis/evidence.h"
#include "driver/search/proposer.h"

namespace optiml::propose {

// "duration_s", "dram_bytes", "instructions_executed", "achieved_occupancy_pct",
// "registers_per_thread", "spill_bytes", "local_bytes_per_thread", "l1tex_sectors",
// "l2_sectors", "sm_throughput_pct", "dram_throughput_pct", "flops_<precision>": each only
// where it was measured.
search::Metrics node_metrics(const analysis::KernelCounters& counters);

// "memory", "compute" or "latency" from the roofline verdict; "" without one.
std::string bottleneck(const analysis::EvidenceReport& report);

}  // namespace optiml::propose
