// A budget that fits the space, for a search whose evaluations were not given: how many
// evaluations a space of this size gets, and when the search has converged, so that further
// evaluations are unlikely to pay.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace optiml::search {

struct TraceItem;
struct Budget;

// Evaluations for a space of `valid` configurations: the whole space up to 256; beyond it
// 20 sqrt(valid), from 320 up to 1000 (a random search finds one of k good configurations of N
// in N / (k + 1) evaluations on average; 1000 is where the largest recorded spaces' model-guided
// searches have found their optimum, with room to spare).
int fitted_evaluations(std::size_t valid);

// The relative gain that counts as progress: a new best at least 1% faster than the best the
// last gain left.
inline constexpr double kMeaningfulGain = 0.01;
// A search never stops for convergence before this many evaluations without a gain.
inline constexpr std::size_t kMinPatience = 100;
// Nor, on a large space, before this share of its budget without a gain. Gains there come far
// apart: on matmul_space (4844 configurations, 3 within 2%) the default search's last gains came
// 150-400 evaluations after the one before, and waiting kMinPatience alone stopped 35% of seeds
// short of within 2% (bench/results/search-efficiency-2026-12-07.md); a third of the budget let
// 95% of them get there, at a median of 489 evaluations spent of 1000.
inline constexpr double kPatienceShare = 0.3;

// The patience of a search with a budget of `evaluations`: kMinPatience, or kPatienceShare of the
// budget where that is more.
std::size_t patience_for(int evaluations);

// The budget of a search nobody gave a number of evaluations: fitted_evaluations(valid), stopping
// once converged after patience_for them. The build's parameter search and the benchmark's
// --fitted replays both start from it.
Budget fitted_budget(std::size_t valid);

// Tracks the search's progress as results arrive and says when it has converged: it has spent
// as many evaluations without a meaningful gain as it took to reach its last one, and at least
// its patience (kMinPatience unless the budget says otherwise). A search that keeps gaining keeps
// going; one that found its best early stops early. A primed search (one that starts from earlier
// searches' winners: a later problem's) refines what they found, and converges after its patience
// alone (on the H100 the matmul's later problems, gaining at evaluations 37 and 53, waited as long
// again).
class Convergence {
  public:
    // `patience`: the fewest evaluations without a gain that count as converged. `primed`: the
    // search started from what earlier searches found, and patience alone decides.
    explicit Convergence(std::size_t patience = kMinPatience, bool primed = false)
        : patience_(patience), primed_(primed) {}

    // One more result (in arrival order): its median when it succeeded, none when it failed.
    void observe(bool ok, double median_ms);
    bool converged() const;
    std::size_t evaluations() const { return evaluations_; }
    std::size_t last_gain_at() const { return last_gain_at_; }
    // "no gain of 1% in the 120 evaluations since evaluation 20"
    std::string text() const;

  private:
    std::size_t patience_;
    bool primed_;
    std::size_t evaluations_ = 0;
    std::size_t last_gain_at_ = 0;  // evaluations when the last meaningful gain arrived
    double gain_best_ms_ = 0.0;     // the best as of that gain (0: nothing succeeded yet)
};

}  // namespace optiml::search
