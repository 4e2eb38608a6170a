// Evidence-Aligned Reasoning metrics (Optimas) of an LLM proposal, and their means over a search:
//   evidence coverage       share of the changes that cite at least one id the evidence holds
//   localization agreement  share of the hotspot lines (lines of dominant stalls inside the
//                           kernel) that some change's line range covers; none without hotspots
//   directional consistency share of the expected effects that moved the predicted way, of those
//                           that moved beyond noise (the judge's check); none when none moved
// The effects a proposal is expected to have are implied by the evidence it cites
// (implied_effects), so consistency measures whether the metrics moved as the evidence says.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/analysis/evidence.h"
#include "driver/llm/response_parse.h"
#include "driver/search/proposer.h"

namespace optiml::llm {

struct EarScores {
    std::optional<double> evidence_coverage;
    std::optional<double> localization;
    std::optional<double> directional;
};

// nullopt without changes.
std::optional<double> evidence_coverage(const std::vector<Change>& changes,
                                        const std::vector<std::string>& valid_ids);
std::optional<double> localization_agreement(const std::vector<Change>& changes,
                                             const std::vector<int>& hotspot_lines);
std::optional<double> directional_consistency(const search::Consistency& consistency);

// The lines of the report's dominant stalls within first..last, in order, without repeats.
std::vector<int> hotspot_lines(const analysis::EvidenceReport& report, int first_line,
                               int last_line);

// What citing `ids` implies should move: the roofline verdict's bottleneck metric (DRAM bytes
// down when memory-bound, instructions down when compute-bound, occupancy up when latency-bound);
// for a dominant stall on memory (long_scoreboard, lg_throttle) L1/TEX sectors down, for any
// other stall instructions down. Ids the report does not hold imply nothing. Without repeats.
std::vector<search::Effect> implied_effects(const std::vector<std::string>& ids,
                                            const analysis::EvidenceReport& report);

// The mean of each score over those that have it.
EarScores mean_scores(const std::vector<EarScores>& scores);

// {"evidence_coverage": 1.0, "localization": null, "directional": 0.5}
nlohmann::json to_json(const EarScores& scores);

}  // namespace optiml::llm
