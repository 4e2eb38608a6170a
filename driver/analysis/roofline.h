// Roofline classification of one kernel run: is it limited by memory bandwidth, by arithmetic
// throughput, or by neither (latency)? Inputs are plain numbers the CUPTI collector and the
// calibration kernels fill in; nothing here knows CUDA.
//
// The model (times, so every case reads the same way):
//   time at the memory roof   t_mem     = dram_bytes / dram_bytes_per_s
//   time at the compute roof  t_compute = flops[p] / flops_per_s[p] for the dominant precision p,
//                                          the one whose FLOPs would take longest at their peak
//   time at the roof          t_roof    = max(t_mem, t_compute)
//   fraction of the roof      t_roof / measured duration   (= achieved / attainable performance)
//   distance to the roof      measured - t_roof seconds, or 1 - fraction
// The binding roofline ceiling ("roof") is the DRAM bandwidth when t_mem >= t_compute (arithmetic
// intensity at or below the ridge point), otherwise the dominant precision's peak.
//
// The verdict also uses the units' measured throughputs (% of peak), as Nsight Compute's
// speed-of-light analysis does, because a kernel can saturate L1/shared memory or the SM's issue
// slots (integer work, address arithmetic) while DRAM and FLOPs stay low:
//   memory utilization  = max(t_mem / measured, dram_throughput_pct/100, l1tex_throughput_pct/100)
//   compute utilization = max(t_compute / measured, sm_throughput_pct/100)
// Threshold (kNearCeiling = 0.60, Nsight Compute's own cut for "latency issues"):
//   both utilizations below 0.60            -> latency-bound (no resource near its ceiling)
//   otherwise the larger utilization decides -> memory-bound or compute-bound
// Fractions above 1 are kept: they mean the calibrated ceiling is lower than what this kernel
// reached, which the report should show rather than hide.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace optiml::analysis {

// A resource counts as saturated at or above this fraction of its ceiling.
inline constexpr double kNearCeiling = 0.60;

// Measured once per device by OptiML's calibration kernels (cached per device).
struct DeviceCeilings {
    std::string device;                         // e.g. "NVIDIA H200"; for the report only
    double dram_bytes_per_s = 0.0;              // sustained DRAM bandwidth
    std::map<std::string, double> flops_per_s;  // per precision: "fp32", "fp64", "fp16", ...
};

// One kernel run's counters, filled by the Range Profiler collector and the compiled function's
// attributes. Optional fields are empty when not collected (no profiling rights, counter absent).
struct KernelCounters {
    double duration_s = 0.0;                  // measured kernel time
    double dram_bytes = 0.0;                  // DRAM bytes read + written
    std::map<std::string, double> flops;      // FLOPs by precision (an FMA counts 2)
    std::optional<double> sm_throughput_pct;  // sm__throughput.avg.pct_of_peak_sustained_elapsed
    std::optional<double>
        dram_throughput_pct;  // dram__throughput.avg.pct_of_peak_sustained_elapsed
    std::optional<double>
        l1tex_throughput_pct;  // l1tex__throughput.avg.pct_of_peak_sustained_active
    std::optional<double>
        achieved_occupancy_pct;           // sm__warps_active.avg.pct_of_peak_sustained_active
    std::optional<double> l1tex_sectors;  // l1tex__t_sectors.sum
    std::optional<double> l2_sectors;     // lts__t_sectors.sum
    std::optional<double> instructions_executed;  // smsp__inst_executed.sum (warp instructions)
    std::optional<std::int64_t> registers_per_thread;
    std::optional<std::int64_t> local_bytes_per_thread;  // local memory, spills included
    std::optional<std::int64_t> spill_store_bytes;       // from the compiler's resource usage
    std::optional<std::int64_t> spill_load_bytes;
    std::optional<std::int64_t> static_shared_bytes;   // per block
    std::optional<std::int64_t> dynamic_shared_bytes;  // per block, as launched
};

enum class Bound { Memory, Compute, Latency };

std::string_view to_string(Bound bound);  // "memory-bound", "compute-bound", "latency-bound"
std::optional<Bound> bound_from_string(std::string_view text);

// What limits the kernel, as `limiter` names it (stable strings, used in the JSON):
//   "dram_roof"         DRAM bytes over the calibrated bandwidth
//   "compute_roof"      dominant-precision FLOPs over the calibrated peak
//   "dram_throughput"   DRAM unit's measured % of peak
//   "l1tex_throughput"  L1/TEX (and shared memory) unit's measured % of peak
//   "sm_throughput"     SM's measured % of peak (issue slots, pipes)
//   ""                  latency-bound: nothing near its ceiling
struct RooflineVerdict {
    Bound bound = Bound::Latency;
    std::string precision;  // dominant precision; "" when no FLOPs counted
    std::optional<double>
        arithmetic_intensity;             // FLOP/byte of `precision`; empty with 0 DRAM bytes
    std::optional<double> ridge_point;    // FLOP/byte where that peak meets the bandwidth roof
    double attainable_flops_per_s = 0.0;  // min(peak, AI * bandwidth); peak with 0 bytes
    double achieved_flops_per_s = 0.0;    // of `precision`
    double achieved_bytes_per_s = 0.0;    // DRAM
    std::string
        roof;  // binding roofline ceiling: "dram" or the precision; "" with no bytes, no FLOPs
    double fraction_of_roof = 0.0;  // time_at_roof_s / measured_s
    double time_at_roof_s = 0.0;    // what the kernel would take running exactly at the roof
    double measured_s = 0.0;
    double distance_s = 0.0;          // measured_s - time_at_roof_s (negative: above the roof)
    double distance_fraction = 0.0;   // 1 - fraction_of_roof
    double memory_utilization = 0.0;  // see the header comment
    double compute_utilization = 0.0;
    std::string limiter;
    std::string explanation;  // one sentence for people and prompts
};

// Throws AnalysisError for unusable input (non-positive duration or bandwidth, negative or
// non-finite counts, FLOPs of a precision that has no ceiling).
RooflineVerdict classify(const KernelCounters& counters, const DeviceCeilings& ceilings);

}  // namespace optiml::analysis
