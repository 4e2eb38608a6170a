// Stall reasons by source line, from CUPTI PC sampling (kernels compiled with line info).
// The collector maps each sampled PC to its source line and hands over one StallSample per
// (file, line, reason) with the number of samples; this file aggregates them and keeps only the
// dominant stalls, which is what the search, the judge and the prompts are shown.
//
// Reason names: the CUPTI PC Sampling API's names, with or without their common prefix
// "smsp__pcsamp_warps_issue_stalled_" ("long_scoreboard" and
// "smsp__pcsamp_warps_issue_stalled_long_scoreboard" are the same reason).
// Rules:
//  - "selected" samples (the warp issued an instruction) and samples flagged not_stalled count
//    towards total_samples but are not stalls.
//  - Reasons ending in "_not_issued" are skipped: CUPTI reports them as the latency subset of the
//    plain reason's samples, so counting both would count those samples twice.
//  - Every other reason, "not_selected" included, is a stall (as Nsight Compute counts them).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace optiml::analysis {

// Default cut for a dominant stall: more than 30% of all stalled samples (the Optimas paper's).
inline constexpr double kDefaultStallShare = 0.30;

struct StallSample {
    std::string file;  // source file of the sampled PC ("" when the kernel has no line info)
    int line = 0;      // 1-based; 0 when unknown
    std::string reason;
    std::uint64_t samples = 0;
    bool not_stalled = false;  // the warp was issuing (collector's flag; "selected" implies it)
};

struct LineStalls {
    std::string file;
    int line = 0;
    std::uint64_t stalled_samples = 0;
    std::map<std::string, std::uint64_t> by_reason;  // normalized reason -> stalled samples
};

struct DominantStall {
    std::string id;  // "stall-1", "stall-2", ... in order of share
    std::string file;
    int line = 0;
    std::string reason;  // normalized
    std::uint64_t samples = 0;
    double share = 0.0;  // of all stalled samples
    std::string description;
};

struct StallSummary {
    double threshold = kDefaultStallShare;
    std::uint64_t total_samples = 0;  // stalled + not stalled
    std::uint64_t stalled_samples = 0;
    std::vector<DominantStall> dominant;  // share > threshold, largest first
};

// Stalled samples per source line, most stalled line first (ties: file, then line).
std::vector<LineStalls> stalls_by_line(const std::vector<StallSample>& samples);

// The (line, reason) pairs holding more than `threshold` of all stalled samples. Largest share
// first; ties by file, line, reason, so ids are stable. Throws AnalysisError for a threshold
// outside [0, 1).
StallSummary summarize_stalls(const std::vector<StallSample>& samples,
                              double threshold = kDefaultStallShare);

// "smsp__pcsamp_warps_issue_stalled_long_scoreboard" -> "long_scoreboard"; others unchanged.
std::string normalize_stall_reason(std::string_view reason);

// One plain line on what the (normalized) reason means; a generic line for unknown reasons.
std::string describe_stall_reason(std::string_view reason);

// Whether the reason marks an issuing warp ("selected"), not a stall.
bool is_issuing_reason(std::string_view reason);

}  // namespace optiml::analysis
