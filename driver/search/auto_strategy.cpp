// The default: exhaustive when every valid configuration fits the evaluation budget (the answer
// is then exact); random when the budget is too small for any model to learn from; otherwise the
// strategy that measured best on the recorded spaces (bench/search_efficiency).
#include "driver/search/strategies.h"

namespace optiml::search {

namespace {
constexpr int kSmallestLearningBudget = 20;
}

std::unique_ptr<Strategy> make_auto(CandidatePool& pool, const StrategyOptions& options) {
    const auto budget = static_cast<std::size_t>(std::max(0, options.budget_evaluations));
    if (pool.size() <= budget) return make_exhaustive(pool, options);
    if (options.budget_evaluations < kSmallestLearningBudget) return make_random(pool, options);
    return make_genetic(pool, options);
}

}  // namespace optiml::search
