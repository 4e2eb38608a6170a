// The default: exhaustive for tiny spaces that fit the evaluation budget (up to 32
// configurations: the answer is then exact, and cheap); random when the budget is too small for
// any model to learn from; otherwise bayes and greedy_ils taking turns (portfolio_strategy.cpp).
// On the six spaces recorded on the H200 (bench/search_efficiency, 20 seeds) no single strategy
// was best everywhere: greedy_ils needed 7.5 evaluations to come within 2% on the convolution
// where bayes needed 51.5, bayes 13.5 on the transpose where greedy_ils needed 53; the pair needs
// 14 and 16, and at most 1.9x the best single strategy on every space, where exhaustive needed
// 3-9x on the spaces that fit a budget of 300.
#include "driver/search/strategies.h"

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
    members.push_back(make_greedy_ils(pool, options));
    return make_portfolio(std::move(members));
}

}  // namespace optiml::search
