// The concrete strategies, one file each; make_strategy (strategy.cpp) picks one by name.
#pragma once

#include <memory>
#include <vector>

#include "driver/search/strategy.h"

namespace optiml::search {

std::unique_ptr<Strategy> make_exhaustive(CandidatePool& pool, const StrategyOptions& options);
std::unique_ptr<Strategy> make_random(CandidatePool& pool, const StrategyOptions& options);
std::unique_ptr<Strategy> make_greedy_ils(CandidatePool& pool, const StrategyOptions& options);
std::unique_ptr<Strategy> make_genetic(CandidatePool& pool, const StrategyOptions& options);
std::unique_ptr<Strategy> make_bayes(CandidatePool& pool, const StrategyOptions& options);
// bayes restricted to the untaken neighbours of the best configuration (the whole space when it
// has none), modelling from its second measurement on (bayes_strategy.cpp).
std::unique_ptr<Strategy> make_local_bayes(CandidatePool& pool, const StrategyOptions& options);
std::unique_ptr<Strategy> make_mcts(CandidatePool& pool, const StrategyOptions& options);
std::unique_ptr<Strategy> make_auto(CandidatePool& pool, const StrategyOptions& options);
// Members take turns proposing; all observe every outcome. Reserve members join the turns while
// the search has gone `stall_after` outcomes without a 1% gain (portfolio_strategy.cpp).
std::unique_ptr<Strategy> make_portfolio(std::vector<std::unique_ptr<Strategy>> members,
                                         std::vector<std::unique_ptr<Strategy>> reserve = {},
                                         std::size_t stall_after = 0);

// Takes pool entry i and appends its configuration to `out`.
void take_into(CandidatePool& pool, std::size_t i, std::vector<Config>& out);

}  // namespace optiml::search
