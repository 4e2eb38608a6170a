#include "driver/profile/metric_catalog.h"

#include <optional>

namespace optiml::profile {
namespace {

constexpr const char* kDuration = "gpu__time_duration.sum";

struct FlopCounter {
    const char* metric;
    const char* precision;
    double flops_per_instruction;
};

constexpr FlopCounter kFlopCounters[] = {
    {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "fp32", 2.0},
    {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "fp32", 1.0},
    {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", "fp32", 1.0},
    {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", "fp64", 2.0},
    {"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", "fp64", 1.0},
    {"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", "fp64", 1.0},
    {"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", "fp16", 2.0},
    {"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum", "fp16", 1.0},
    {"smsp__sass_thread_inst_executed_op_hmul_pred_on.sum", "fp16", 1.0},
};

std::optional<double> find(const std::map<std::string, double>& counters, const char* name) {
    auto it = counters.find(name);
    if (it == counters.end()) return std::nullopt;
    return it->second;
}

}  // namespace

const std::vector<std::string>& proxy_metrics() {
    static const std::vector<std::string> metrics = [] {
        std::vector<std::string> m{
            kDuration,
            "sm__throughput.avg.pct_of_peak_sustained_elapsed",
            "dram__throughput.avg.pct_of_peak_sustained_elapsed",
            "l1tex__throughput.avg.pct_of_peak_sustained_active",
            "dram__bytes_read.sum",
            "dram__bytes_write.sum",
            "l1tex__t_sectors.sum",
            "lts__t_sectors.sum",
            "smsp__inst_executed.sum",
            "sm__warps_active.avg.pct_of_peak_sustained_active",
        };
        for (const auto& f : kFlopCounters) m.emplace_back(f.metric);
        return m;
    }();
    return metrics;
}

const std::vector<std::string>& pool_metrics() {
    static const std::vector<std::string> metrics = [] {
        std::vector<std::string> m = proxy_metrics();
        for (const char* extra : {
                 "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
                 "lts__throughput.avg.pct_of_peak_sustained_elapsed",
                 "lts__t_sector_hit_rate.pct",
                 "l1tex__t_sector_hit_rate.pct",
                 "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                 "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                 "smsp__thread_inst_executed_per_inst_executed.ratio",
                 "smsp__issue_active.avg.pct_of_peak_sustained_active",
             })
            m.emplace_back(extra);
        return m;
    }();
    return metrics;
}

std::map<std::string, double> flops_by_precision(const std::map<std::string, double>& counters) {
    std::map<std::string, double> flops;
    for (const auto& f : kFlopCounters)
        if (auto value = find(counters, f.metric))
            flops[f.precision] += *value * f.flops_per_instruction;
    for (auto it = flops.begin(); it != flops.end();)  // a precision the kernel never used
        it = it->second > 0.0 ? std::next(it) : flops.erase(it);
    return flops;
}

analysis::KernelCounters kernel_counters(const ProfileResult& result, double duration_s) {
    const auto& c = result.counters;
    analysis::KernelCounters k;
    k.duration_s = duration_s > 0.0 ? duration_s : find(c, kDuration).value_or(0.0) * 1e-9;
    k.dram_bytes = find(c, "dram__bytes_read.sum").value_or(0.0) +
                   find(c, "dram__bytes_write.sum").value_or(0.0);
    k.flops = flops_by_precision(c);
    k.sm_throughput_pct = find(c, "sm__throughput.avg.pct_of_peak_sustained_elapsed");
    k.dram_throughput_pct = find(c, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
    k.l1tex_throughput_pct = find(c, "l1tex__throughput.avg.pct_of_peak_sustained_active");
    k.achieved_occupancy_pct = find(c, "sm__warps_active.avg.pct_of_peak_sustained_active");
    k.l1tex_sectors = find(c, "l1tex__t_sectors.sum");
    k.l2_sectors = find(c, "lts__t_sectors.sum");
    k.instructions_executed = find(c, "smsp__inst_executed.sum");
    k.registers_per_thread = result.function.registers_per_thread;
    k.local_bytes_per_thread = result.function.local_bytes_per_thread;
    k.static_shared_bytes = result.function.static_shared_bytes;
    k.dynamic_shared_bytes = result.function.dynamic_shared_bytes;
    return k;
}

}  // namespace optiml::profile
