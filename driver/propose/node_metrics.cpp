#include "driver/propose/node_metrics.h"

namespace optiml::propose {
namespace {

template <typename T>
void put(search::Metrics& metrics, const char* name, const std::optional<T>& value) {
    if (value) metrics[name] = static_cast<double>(*value);
}

}  // namespace

search::Metrics node_metrics(const analysis::KernelCounters& c) {
    search::Metrics m;
    m["duration_s"] = c.duration_s;
    m["dram_bytes"] = c.dram_bytes;
    for (const auto& [precision, flops] : c.flops) m["flops_" + precision] = flops;
    put(m, "instructions_executed", c.instructions_executed);
    put(m, "achieved_occupancy_pct", c.achieved_occupancy_pct);
    put(m, "registers_per_thread", c.registers_per_thread);
    put(m, "local_bytes_per_thread", c.local_bytes_per_thread);
    put(m, "l1tex_sectors", c.l1tex_sectors);
    put(m, "l2_sectors", c.l2_sectors);
    put(m, "sm_throughput_pct", c.sm_throughput_pct);
    put(m, "dram_throughput_pct", c.dram_throughput_pct);
    if (c.spill_store_bytes || c.spill_load_bytes)
        m["spill_bytes"] =
            static_cast<double>(c.spill_store_bytes.value_or(0) + c.spill_load_bytes.value_or(0));
    return m;
}

std::string bottleneck(const analysis::EvidenceReport& report) {
    if (!report.roofline) return "";
    switch (report.roofline->bound) {
        case analysis::Bound::Memory:
            return "memory";
        case analysis::Bound::Compute:
            return "compute";
        case analysis::Bound::Latency:
            return "latency";
    }
    return "";
}

}  // namespace optiml::propose
