// The default: exhaustive when every valid configuration fits the evaluation budget (the answer
// is then exact); random when the budget is too small for any model to learn from; otherwise
// bayes, which needed the fewest evaluations to come within 2% of the optimum on the recorded
// spaces so far (bench/search_efficiency: the examples' H200 traces; revisit as recordings of
// larger spaces land).
#include "driver/search/strategies.h"

namespace optiml::search {

namespace {
constexpr int kSmallestLearningBudget = 20;
}

std::unique_ptr<Strategy> make_auto(CandidatePool& pool, const StrategyOptions& options) {
    const auto budget = static_cast<std::size_t>(std::max(0, options.budget_evaluations));
    if (pool.size() <= budget) return make_exhaustive(pool, options);
    if (options.budget_evaluations < kSmallestLearningBudget) return make_random(pool, options);
    return make_bayes(pool, options);
}

}  // namespace optiml::search
