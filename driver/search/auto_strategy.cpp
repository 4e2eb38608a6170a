// The default: exhaustive for tiny spaces that fit the evaluation budget (up to 32
// configurations: the answer is then exact, and cheap); random when the budget is too small for
// any model to learn from; otherwise random sampling's own first three draws, the extremes design
// (initial_design.h: the all-largest corner, then the default with each parameter at its largest)
// and two Gaussian-process searches taking turns (portfolio_strategy.cpp): bayes, over the whole
// space, and local_bayes, over the best configuration's neighbours. The design found the
// convolution's and the matmul's optima in 2-6 evaluations on the H200 recordings; the random
// opening keeps the default no worse than random sampling where good configurations are common
// (saxpy, and the reduction from a random start lost 1-4 evaluations to the design's fixed points).
// bench/results/search-efficiency-2026-12-05.md has the medians, 60 seeds, both starts.
#include "driver/search/detail/initial_design.h"
#include "driver/search/detail/strategies.h"

namespace optiml::search {

namespace {
constexpr int kSmallestLearningBudget = 20;
constexpr std::size_t kExhaustiveUpTo = 32;
}  // namespace

std::unique_ptr<Strategy> make_auto(CandidatePool& pool, const StrategyOptions& options) {
    const auto budget = static_cast<std::size_t>(std::max(0, options.budget_evaluations));
    if (pool.size() <= std::min(budget, kExhaustiveUpTo)) return make_exhaustive(pool, options);
    if (options.budget_evaluations < kSmallestLearningBudget) return make_random(pool, options);
    std::vector<std::unique_ptr<Strategy>> members;
    members.push_back(make_bayes(pool, options));
    members.push_back(make_local_bayes(pool, options));
    return make_designed(pool, options, make_portfolio(std::move(members)));
}

}  // namespace optiml::search
