// OptiML-X's tree over program transformations. A node is a measured candidate (source,
// parameters, compile options); an edge is one transformation a Proposer offered (a parameter
// move, a compile-option change, a source rewrite). Selection is PUCT with the judge's score as
// prior; progressive widening admits a node's proposals in prior order, a few more with every
// visit, so that deep paths are tried before wide nodes are exhausted; children are measured
// through the Evaluator (streaming or in batches), profiled while the profile budget lasts, and
// their composite reward (reward.h) is backed up to the root. docs/transformations.md tells it
// all, with what is recorded per node (tree_json.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "driver/search/proposer.h"
#include "driver/search/reward.h"
#include "driver/search/search.h"

namespace optiml::search {

struct NodeProfile {
    Metrics metrics;
    std::string bottleneck;  // "memory", "compute", "latency", or "" when undiagnosed
};

// Profiles a measured, correct candidate when the tree asks (nullopt: it could not).
using NodeProfiler =
    std::function<std::optional<NodeProfile>(const Candidate&, const Outcome& measured)>;

struct TreeOptions {
    // PUCT's weight of the prior-driven bonus against the mean reward (rewards are ~ln speedup).
    double exploration = 1.0;
    // Progressive widening: a node may have at most ceil(widening_k * visits^widening_alpha)
    // children (visits counting evaluations in flight below it). Only when every child is a dead
    // end (rejected, a repeat of an image measured before, or exhausted) and nothing is in flight
    // below may it widen beyond.
    double widening_k = 2.0;
    double widening_alpha = 0.5;
    // Evaluations in flight at once: min(this, streaming_depth()) streaming, else the batch size.
    std::size_t in_flight = 4;
    // Profiles in one tree, the root's included; children beyond get a reward without metrics.
    std::size_t max_profiles = 32;
    RewardWeights weights;
    // A node replaces the best only when at least this much faster (and, where the evaluator
    // judges, beyond the measured spread): a rewritten kernel ships for a real gain, not noise.
    double min_gain = 0.01;
    std::uint64_t seed = 1;  // breaks ties between equally scored children
};

struct TreeStart {
    Candidate root;
    Outcome root_outcome;      // measured before the tree; should be correct (else nothing expands)
    double original_ms = 0.0;  // the original kernel's median: the speedup term's reference
    std::set<Candidate> measured;  // measured before the tree: never evaluated again
};

struct TreeNode {
    std::size_t id = 0;  // index in TreeResult::nodes: the order results arrived in (root 0)
    std::optional<std::size_t> parent;
    // The edge from the parent. The root's holds only its candidate.
    Proposal proposal;
    Outcome outcome;
    Metrics metrics;           // empty when not profiled
    std::string bottleneck;    // the profile's diagnosis; "" when not profiled
    double judge_score = 0.0;  // the prior the judge gave the proposal (0 for the root)
    RewardTerms reward;
    Consistency consistency;  // the judge's check of the proposal's expected effects
    bool rejected = false;    // compile error, wrong result, NaN: never expanded, never best
    double visits = 0.0;      // evaluations backed up through this node, its own included

    const Candidate& candidate() const { return proposal.candidate; }
};

struct TreeResult {
    std::vector<TreeNode> nodes;
    std::vector<TraceItem> trace;  // every evaluation of the tree in arrival order (not the root)
    std::size_t best = 0;          // node id of the fastest correct
    std::vector<std::size_t> winning_path;  // root ... best
    double wall_s = 0.0;
    bool stopped_by_time = false;
};

// `budget` counts evaluations and seconds of the tree alone (its strategy is not read).
// `progress` is called after each result (streaming) or each batch.
TreeResult run_tree_search(const TreeStart& start, Evaluator& evaluator,
                           const std::vector<Proposer*>& proposers, Judge& judge,
                           const NodeProfiler& profile, const Budget& budget,
                           const TreeOptions& options = {},
                           const std::function<void(const TreeResult&)>& progress = {});

}  // namespace optiml::search
