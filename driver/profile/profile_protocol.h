// What the driver asks the worker to profile and what comes back (worker ops "profile" and
// "calibrate"; protocol.h describes the channel). Counters come from CUPTI's Range Profiler,
// stall samples from CUPTI PC sampling, both collected in the worker on demand: profiling replays
// the kernel several times, so the search decides which variants are worth it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/analysis/stalls.h"

namespace optiml::profile {

struct ProfileRequest {
    std::vector<std::string> metrics;  // Range Profiler metric names, e.g. "dram__bytes.sum"
    bool pc_sampling = true;           // also sample stall reasons per PC
    // PC sampling launches the kernel repeatedly until about this much kernel time has passed, so
    // short kernels still give enough samples.
    double pc_sampling_target_ms = 50.0;
};

// The compiled function's resources, from the CUDA driver.
struct FunctionAttributes {
    int registers_per_thread = 0;
    int local_bytes_per_thread = 0;  // local memory (spills included)
    int static_shared_bytes = 0;
    unsigned dynamic_shared_bytes = 0;  // as launched
    int max_threads_per_block = 0;
};

struct ProfileResult {
    bool ok = false;
    std::string message;                     // why nothing was collected
    std::map<std::string, double> counters;  // metric -> value, only those collected
    std::vector<std::string> unavailable;    // requested metrics this GPU does not offer
    bool counters_permitted = true;          // false: no profiling rights (counters empty)
    std::string counters_note;               // why counters are missing, when they are
    int passes = 0;                          // replay passes the Range Profiler needed
    double counters_ms = 0.0;                // wall time of counter collection
    FunctionAttributes function;
    bool pc_sampling_done = false;
    std::string pc_sampling_note;               // why stall samples are missing
    std::vector<analysis::StallSample> stalls;  // per (file, line, reason)
    std::uint64_t pc_total_samples = 0;         // all samples CUPTI took, issuing ones too
    std::uint64_t pc_dropped_samples = 0;
    int pc_sampling_launches = 0;
    double pc_sampling_ms = 0.0;
};

// The device's ceilings as OptiML's calibration kernels measured them.
struct Calibration {
    bool ok = false;
    std::string message;
    std::string device;
    double dram_bytes_per_s = 0.0;                  // the best of dram_by_pattern
    std::map<std::string, double> dram_by_pattern;  // "copy", "read", "read2_write1"
    std::map<std::string, double> flops_per_s;      // "fp32", "fp64", "fp16"
    unsigned sm_clock_mhz = 0;
    unsigned memory_clock_mhz = 0;
};

void to_json(nlohmann::json& json, const ProfileRequest& request);
void from_json(const nlohmann::json& json, ProfileRequest& request);
void to_json(nlohmann::json& json, const FunctionAttributes& attributes);
void from_json(const nlohmann::json& json, FunctionAttributes& attributes);
void to_json(nlohmann::json& json, const ProfileResult& result);
void from_json(const nlohmann::json& json, ProfileResult& result);
void to_json(nlohmann::json& json, const Calibration& calibration);
void from_json(const nlohmann::json& json, Calibration& calibration);

}  // namespace optiml::profile
