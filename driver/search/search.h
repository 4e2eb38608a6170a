// The search over a kernel's tuning space. Knows nothing of CUDA: it sees an Evaluator, so it
// runs against a GPU and against recorded measurements (tests/data) alike.
// run_search drives one strategy (strategy.h: exhaustive, random, greedy_ils, genetic, bayes,
// mcts, or auto, which picks) in batches, or streaming with a streaming evaluator. The original
// configuration (all parameter defaults) is evaluated first, alone: it is the baseline every
// result is compared with (unless the budget turns it off: a search that starts from priors).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "driver/search/budget_fit.h"
#include "driver/search/candidate.h"

namespace optiml::search {

struct Space {
    std::vector<std::string> names;
    std::vector<std::vector<std::int64_t>> values;  // per name, in the spec's order
    Config defaults;
    std::function<bool(const Config&)> is_valid;  // constraints; null = all valid

    // Every valid configuration, in lexicographic order of value indices.
    std::vector<Config> enumerate_valid() const;
};

// What an evaluator measured beside the median, for the trace and the tuning's throughput; each
// figure is absent where it was not measured (a failed candidate, a recording, an older worker).
// The trace's "details" (search/candidate_json.h) writes the figures present under these names.
struct OutcomeDetails {
    // The timing: its confidence interval, its phases, the clocks, how the L2 started cold.
    std::optional<double> ci_low_ms, ci_high_ms, verify_ms, timing_ms, sm_clock_mhz,
        memory_clock_mhz;
    bool launch_bound = false;
    std::optional<int> input_copies;  // inputs rotated through this many copies
    bool l2_flushed = false;
    // The incumbent, re-timed beside the challenger.
    std::optional<double> incumbent_median_ms, incumbent_ci_low_ms, incumbent_ci_high_ms;
    // Cold and warm L2 (tune/timing_conditions.h).
    std::optional<bool> decided_warm;
    std::optional<double> cold_median_ms, incumbent_cold_median_ms, warm_median_ms,
        incumbent_warm_median_ms;
    std::optional<int> warm_burst, warm_runs;
    // The compile: its own time (or the image cache's lookup), the GPU's wait for it, whether
    // the image cache served it.
    std::optional<double> compile_ms, compile_wait_ms;
    bool compile_cached = false;
    // Verification at the spec's extra sizes, on which GPU, and again for a large speedup.
    std::optional<double> extra_sizes_verify_ms;
    std::optional<int> verified_on_device;
    bool reverified = false;
    // Not run: its image, kernel and launch geometry were those of this earlier variant, whose
    // measurement it carries (tune/candidate_evaluator.h).
    std::optional<Candidate> same_image_as;
};

struct Outcome {
    bool ok = false;
    std::string status;  // "ok" or why it failed
    std::string message;
    double median_ms = 0.0;
    double min_ms = 0.0;
    double max_ms = 0.0;
    int runs = 0;
    // Set by evaluators that re-time the incumbent beside each challenger: whether this one won
    // beyond the measured spread. Unset: the search compares medians.
    std::optional<bool> beats_incumbent;
    OutcomeDetails details;
};

class Evaluator {
  public:
    virtual ~Evaluator() = default;
    // Evaluates a batch (compiles may run in parallel); one outcome per candidate, in order.
    virtual std::vector<Outcome> evaluate(const std::vector<Candidate>& batch) = 0;

    // A streaming evaluator takes configurations one at a time and returns each result as soon
    // as it is ready, in the order they finish: run_search then keeps streaming_depth() of them
    // in flight. 0 (the default): batches through evaluate().
    virtual std::size_t streaming_depth() const { return 0; }
    virtual void submit(const Candidate& candidate);
    // Blocks until a submitted candidate is done; nullopt when none is in flight.
    virtual std::optional<std::pair<Candidate, Outcome>> collect();
    // Drops what has been submitted but not started (the budget ran out); returns how many.
    virtual std::size_t cancel_pending() { return 0; }
    // Blocks until a submitted candidate is done and drops it unmeasured (the search has
    // stopped); false when none is in flight. By default its result is collected and dropped.
    virtual bool discard() { return collect().has_value(); }
};

// The most candidates a streaming tuning keeps in flight: tune's evaluator keeps the host's
// cores + 2, up to this (18 on the H200's 16 cores), and replays stream this many by default.
inline constexpr std::size_t kMaxStreamingDepth = 18;
// The batch run_search proposes at once for an evaluator that does not stream.
inline constexpr std::size_t kDefaultBatchSize = 8;

struct Result;

struct Budget {
    int evaluations = 200;
    double seconds = 600.0;
    std::string strategy = "auto";  // a name of strategy_names() (strategy.h)
    // Stop once the search has converged (budget_fit.h: Convergence), before the budget is spent:
    // for budgets fitted to the space, which nobody chose.
    bool stop_when_converged = false;
    // The evaluations without a gain that count as converged (budget_fit.h): at least this many,
    // and, without priors, as many as it took to reach the last gain. A search that starts from
    // priors another search found (a later problem's) needs less proof that nothing better is
    // near: this many alone.
    std::size_t patience = kMinPatience;
    // Stop proposing once this says the result so far is enough (a benchmark that has measured
    // what it reports); what is in flight is dropped, as when it converges. Empty: never.
    std::function<bool(const Result&)> enough = {};
    // Measured right after the baseline, before the strategy proposes anything (what an earlier
    // problem's tuning found best), each valid one not yet taken; the strategy is told their
    // outcomes like its own.
    std::vector<Config> priors = {};
    // Measure the original configuration first, alone (the baseline every result is compared
    // with). A later problem's search turns it off: its results are compared with the winners
    // so far, and at a large problem the original is often the slowest variant there is.
    bool measure_baseline = true;
};

struct TraceItem {
    Candidate candidate;
    Outcome outcome;
    double elapsed_s = 0.0;  // since the search started, when this result arrived
};

struct Result {
    std::string strategy;        // the strategy that ran (auto names the one it chose)
    std::size_t space_size = 0;  // valid configurations
    std::vector<TraceItem> trace;
    std::optional<std::size_t> best;      // index into trace: the fastest correct config
    std::optional<std::size_t> baseline;  // index into trace of the default config
    double wall_s = 0.0;
    bool stopped_by_time = false;
    // Why the search ended: "the budget of 200 evaluations was spent", "the time budget of 600 s
    // was spent", "every configuration was measured", "converged: no gain of 1% in ...".
    std::string stop_reason;
};

using Progress = std::function<void(const Result& so_far)>;

// Throws std::invalid_argument when budget.strategy is not a strategy's name.

Result run_search(const Space& space, Evaluator& evaluator, const Budget& budget,
                  const Progress& progress = {}, std::uint64_t seed = 1,
                  std::size_t batch_size = kDefaultBatchSize);

// How run_search drives an evaluator of this streaming depth: "streaming, 18 in flight", or
// "batches of 8" where it does not stream (depth 0).
std::string pipeline_text(std::size_t streaming_depth, std::size_t batch_size);

std::string format_config(const Config& config);  // "block_size_x=256 items_per_thread=1"
// format_config, then what else sets it apart: "... [source 3fa2c1b0: unroll; -maxrregcount=64]"
std::string format_candidate(const Candidate& candidate);

}  // namespace optiml::search
