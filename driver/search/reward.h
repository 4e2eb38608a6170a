// The composite reward of a node of the transformation tree (tree_search.h), after OptiML-X:
// measured speedup, plus the move of the bottleneck's proxy metric, minus guardrail penalties,
// plus the judge's score. Every weight lives in RewardWeights, documented there and in
// docs/transformations.md; reward_terms names each term so that `optiml explain` can say why a
// node scored as it did.
#pragma once

#include <string>

#include "driver/search/proposer.h"

namespace optiml::search {

struct RewardWeights {
    // Per unit of ln(original_ms / node_ms): 2x faster earns 0.69, 2x slower costs 0.69.
    double speedup = 1.0;
    // Per unit of the bottleneck's proxy move: ln(parent/node) of dram_bytes ("memory") or of
    // instructions_executed ("compute"); (node - parent) / 100 of achieved_occupancy_pct
    // ("latency"). Smaller than speedup: the proxy guides, the clock decides.
    double proxy = 0.3;
    // Per register per thread above the parent's.
    double register_growth = 0.005;
    // Per unit of ln(1 + spill bytes (store + load) above the parent's).
    double spill = 0.1;
    // Per 100 points of achieved_occupancy_pct lost against the parent.
    double occupancy_loss = 0.5;
    // Per unit of the judge's score (in [0, 1]).
    double judge = 0.1;
    // The whole reward of a child that failed (compile error, wrong result, NaN): it is rejected
    // outright, and this is what the tree backs up for it.
    double rejected = -1.0;
};

// The terms add up: total = speedup + proxy + penalty + judge. The penalty is never positive.
struct RewardTerms {
    double speedup = 0.0;
    double proxy = 0.0;
    double penalty = 0.0;
    double judge = 0.0;
    double total = 0.0;
};

// `bottleneck` is the parent's diagnosis ("memory", "compute", "latency", or "" for none): the
// direction the proposal was made in. A metric missing on either side contributes nothing, and
// so does a time that is not positive.
RewardTerms reward_terms(double original_ms, double node_ms, const Metrics& parent,
                         const Metrics& node, const std::string& bottleneck, double judge_score,
                         const RewardWeights& w);
double composite_reward(double original_ms, double node_ms, const Metrics& parent,
                        const Metrics& node, const std::string& bottleneck, double judge_score,
                        const RewardWeights& w);

// What a rejected node scores: only the fixed penalty.
RewardTerms rejected_terms(const RewardWeights& w);

}  // namespace optiml::search
