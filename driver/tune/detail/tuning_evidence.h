// The evidence a tuning run keeps with its winner: the original's and the winner's reports
// (counters, roofline, dominant stalls by line), and the counters that explain run time across
// a spread of the evaluated variants. Profiling replays kernels many times, so it runs once the
// search is over, on the original, the winner and at most kProfiledVariants others.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "driver/measure/worker_client.h"
#include "driver/search/search.h"
#include "driver/spec/spec.h"
#include "driver/tune/candidate_evaluator.h"

namespace optiml::tune {

inline constexpr std::size_t kProfiledVariants = 12;

struct TuningEvidence {
    nlohmann::json json;     // {"schema","before","after","selection_table","profiling"}
    std::string markdown;    // both reports, for people
    nlohmann::json summary;  // for the manifest: passes, cost, fit quality, verdicts
};

struct EvidenceInputs {
    const spec::Spec* spec = nullptr;
    const measure::DeviceInfo* device = nullptr;
    measure::RemoteSession* session = nullptr;
    const tune::CandidateEvaluator* evaluator = nullptr;
    const search::Result* result = nullptr;
    measure::LaunchSpec original_launch;
    std::filesystem::path scratch;
    std::filesystem::path cache_root;  // for the device ceilings; empty: measure each time
};

// Never fails the tuning: trouble becomes notes in the reports (or nullopt when nothing could be
// profiled at all, with the reason in `log`).
std::optional<TuningEvidence> collect_tuning_evidence(const EvidenceInputs& inputs,
                                                      std::ostream& log);

// The correct variants to profile for counter selection: up to `count`, spread evenly over the
// ranking by time (fastest and slowest included), the winner and the baseline excluded.
std::vector<std::size_t> spread_of_variants(const search::Result& result, std::size_t count);

}  // namespace optiml::tune
