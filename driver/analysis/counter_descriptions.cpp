// What each hardware counter measures, in one plain line (Nsight Compute / Range Profiler names).
#include <string>
#include <string_view>

#include "driver/analysis/counter_selection.h"
#include "driver/analysis/stalls.h"

namespace optiml::analysis {

namespace {

struct CounterText {
    std::string_view name;
    std::string_view description;
};

constexpr CounterText kCounters[] = {
    // Device memory (HBM/DRAM).
    {"dram__bytes_read.sum", "bytes read from device memory (DRAM)"},
    {"dram__bytes_write.sum", "bytes written to device memory (DRAM)"},
    {"dram__bytes.sum", "bytes moved to and from device memory (DRAM)"},
    {"dram__throughput.avg.pct_of_peak_sustained_elapsed",
     "how busy device memory was, as % of its peak over the kernel's time"},
    {"dram__sectors_read.sum", "32-byte sectors read from device memory"},
    {"dram__sectors_write.sum", "32-byte sectors written to device memory"},
    // L2 cache.
    {"lts__t_sectors.sum", "32-byte sectors requested from the L2 cache (reads, writes, atomics)"},
    {"lts__t_sector_hit_rate.pct", "share of L2 sector requests that hit in L2"},
    {"lts__t_sectors_srcunit_tex_op_read.sum", "32-byte sectors the SMs read from L2"},
    {"lts__t_sectors_srcunit_tex_op_write.sum", "32-byte sectors the SMs wrote to L2"},
    {"lts__throughput.avg.pct_of_peak_sustained_elapsed",
     "how busy the L2 cache was, as % of its peak"},
    // L1/TEX and shared memory.
    {"l1tex__t_sectors.sum",
     "32-byte sectors requested from L1/TEX (global, local, texture accesses)"},
    {"l1tex__t_requests.sum", "memory instructions' requests to L1/TEX"},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "32-byte sectors fetched by global loads"},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "32-byte sectors written by global stores"},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
     "global load requests (one per warp instruction)"},
    {"l1tex__t_sector_hit_rate.pct", "share of L1/TEX sector requests that hit in L1"},
    {"l1tex__throughput.avg.pct_of_peak_sustained_active",
     "how busy L1/TEX and shared memory were, as % of their peak while the SMs were active"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
     "extra shared-memory cycles lost to bank conflicts on loads"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
     "extra shared-memory cycles lost to bank conflicts on stores"},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
     "shared-memory wavefronts processed (more per instruction means bank conflicts)"},
    // SM throughput, instructions and occupancy.
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed",
     "how busy the SMs' busiest unit was, as % of its peak over the kernel's time"},
    {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
     "how busy the busiest memory unit (L1, L2 or DRAM) was, as % of its peak"},
    {"smsp__inst_executed.sum", "warp instructions executed"},
    {"sm__inst_executed.sum", "warp instructions executed"},
    {"smsp__thread_inst_executed.sum", "thread instructions executed (per active thread)"},
    {"smsp__thread_inst_executed_per_inst_executed.ratio",
     "active threads per executed warp instruction (32 means no divergence)"},
    {"smsp__issue_active.avg.pct_of_peak_sustained_active",
     "share of cycles in which a scheduler issued an instruction"},
    {"smsp__warps_eligible.avg.per_cycle_active", "warps ready to issue per scheduler and cycle"},
    {"sm__warps_active.avg.pct_of_peak_sustained_active",
     "achieved occupancy: active warps as % of the most an SM can hold"},
    {"sm__maximum_warps_per_active_cycle_pct",
     "theoretical occupancy: the most warps the launch allows per SM, as % of the hardware limit"},
    {"sm__cycles_active.avg", "cycles in which an SM had at least one warp resident"},
    {"gpc__cycles_elapsed.max", "GPU cycles the kernel took"},
    {"smsp__sass_average_branch_targets_threads_uniform.pct",
     "share of branches all threads of a warp took the same way"},
    // Floating-point work.
    {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
     "fp32 fused multiply-adds executed (per thread)"},
    {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "fp32 additions executed (per thread)"},
    {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
     "fp32 multiplications executed (per thread)"},
    {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
     "fp64 fused multiply-adds executed (per thread)"},
    {"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum",
     "fp16 fused multiply-adds executed (per thread)"},
    // Launch and compiled-function properties.
    {"launch__registers_per_thread",
     "registers each thread uses (more can mean fewer resident warps)"},
    {"launch__shared_mem_per_block_static", "shared memory declared statically per block (bytes)"},
    {"launch__shared_mem_per_block_dynamic", "shared memory requested at launch per block (bytes)"},
    {"launch__occupancy_limit_registers", "blocks per SM the register use allows"},
    {"launch__waves_per_multiprocessor",
     "how many rounds of blocks each SM runs (fractions waste a tail)"},
    {"smsp__sass_inst_executed_op_local_ld.sum",
     "local-memory loads executed (register spills or stack arrays)"},
};

std::string_view base_name(std::string_view name) {
    return name.substr(0, name.find('.'));
}

}  // namespace

std::string describe_counter(std::string_view name) {
    for (const CounterText& entry : kCounters) {
        if (entry.name == name) return std::string(entry.description);
    }
    // Stall-reason counters (smsp__warp_issue_stalled_<reason>_per_warp_active.pct,
    // smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio, PC-sampling counts).
    constexpr std::string_view kStalled = "issue_stalled_";
    if (const auto at = name.find(kStalled); at != std::string_view::npos) {
        std::string_view reason = name.substr(at + kStalled.size());
        reason = reason.substr(0, reason.find('.'));
        for (std::string_view suffix : {"_per_warp_active", "_per_issue_active"}) {
            if (reason.ends_with(suffix)) reason.remove_suffix(suffix.size());
        }
        return "how often warps stalled on \"" + std::string(reason) +
               "\": " + describe_stall_reason(reason);
    }
    // Same counter, another roll-up (e.g. .avg instead of .sum).
    for (const CounterText& entry : kCounters) {
        if (base_name(entry.name) == base_name(name)) {
            return std::string(entry.description) + " (roll-up: " + std::string(name) + ")";
        }
    }
    return "hardware counter \"" + std::string(name) +
           "\"; not in OptiML's description table (see the Nsight Compute metrics reference)";
}

}  // namespace optiml::analysis
