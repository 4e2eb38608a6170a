// Counter selection: from a wide pool of hardware counters collected over the evaluated variants
// of one kernel, choose the few that best explain run time, so the evidence (and an LLM prompt)
// shows three numbers that matter rather than a hundred that might.
//
// Method (randomized greedy forward selection, in the manner of ensemble orthogonal matching
// pursuit):
//  1. Rows whose runtime is missing (NaN/inf) are dropped. Non-finite counter values count as
//     missing; a counter missing in more than `max_missing_fraction` of the rows is dropped, the
//     remaining gaps are filled with the counter's mean (0 after standardizing). Constant counters
//     are dropped: they cannot explain a difference.
//  2. Counters and runtime are standardized (mean 0, standard deviation 1), so coefficients are
//     comparable across counters and no intercept is needed.
//  3. `runs` runs of forward selection, each seeded from `seed`: at every step the remaining
//     counters are ranked by |correlation| with the current residual; run 0 takes the best (plain
//     orthogonal matching pursuit), the others pick uniformly at random among the
//     `top_candidates` best whose correlation is at least `min_relative_correlation` times the
//     best one's: near-ties (say two counters that measure nearly the same thing) are explored,
//     a clearly weaker counter is not picked ahead of a clearly stronger one.
//     After each pick the runtime is refitted by least squares on all picks so far (an orthogonal
//     projection), and the residual is what that fit leaves unexplained.
//  4. Counters are ranked by how many runs picked them (ties: run 0's order, then table order);
//     the final set is the first k that are not linearly dependent on those already kept, and is
//     refitted by least squares for R^2 and each counter's coefficient and sign.
// At most min(k, usable counters, variants - 2) counters are chosen, so at least one degree of
// freedom is left and R^2 stays meaningful; with fewer than 3 variants nothing is chosen and
// `note` says why. Everything is deterministic for a given table, options and seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace optiml::analysis {

struct CounterTable {
    std::vector<std::string> counters;      // column names (e.g. "dram__bytes_read.sum")
    std::vector<std::vector<double>> rows;  // one per evaluated variant, a value per counter
    std::vector<double> runtime_s;          // one per row: the target
};

struct SelectionOptions {
    std::size_t k = 3;
    std::size_t runs = 64;
    std::size_t top_candidates = 3;
    double min_relative_correlation = 0.5;
    std::uint64_t seed = 1;
    double max_missing_fraction = 0.5;
};

struct SelectedCounter {
    std::string id;  // "counter-1", ... in the order of the final set
    std::string name;
    double coefficient = 0.0;  // standardized: runtime standard deviations per counter deviation
    int sign = 0;              // +1: more of it, slower; -1: more of it, faster
    double frequency = 0.0;    // share of runs that picked it
    double unique_r_squared = 0.0;  // how much R^2 drops without it (its own contribution)
    std::string description;
};

struct DroppedCounter {
    std::string name;
    std::string reason;  // "constant", "mostly missing"
};

struct CounterSelection {
    std::vector<SelectedCounter> counters;
    double r_squared = 0.0;    // of the least-squares fit on the final set
    std::size_t variants = 0;  // rows used
    std::size_t runs = 0;
    std::vector<DroppedCounter> dropped;
    std::string note;  // why fewer than k were chosen, when that happens
};

// Throws AnalysisError when the table's shape is wrong (row lengths, runtime count, duplicate
// names) or the options are (k of 0 or over 10, runs of 0, top_candidates of 0,
// min_relative_correlation or max_missing_fraction outside [0, 1]).
CounterSelection select_counters(const CounterTable& table, const SelectionOptions& options = {});

// One plain line on what the counter measures; a generic line for counters not in the table.
std::string describe_counter(std::string_view name);

}  // namespace optiml::analysis
