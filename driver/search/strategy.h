// The interface every search strategy implements: ask/tell. `propose(n)` returns up to n
// configurations to measure next, given everything observed so far; `observe` reports one
// measurement. Proposals come from the shared CandidatePool and are taken there, so a strategy
// never proposes an invalid configuration or one proposed before; several proposals may be in
// flight at once (a streaming evaluator asks again before the earlier ones are observed).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "driver/search/candidate_pool.h"
#include "driver/search/search.h"

namespace optiml::search {

class Strategy {
  public:
    virtual ~Strategy() = default;
    // The strategy that decides now (an adaptive one names the strategy it delegates to).
    virtual std::string name() const = 0;
    // Fewer than n (or none) when the strategy has nothing left to try.
    virtual std::vector<Config> propose(std::size_t n) = 0;
    // Called after the pool has recorded the outcome (pool.cost() already knows it).
    virtual void observe(const Config& config, const Outcome& outcome) = 0;
};

struct StrategyOptions {
    std::uint64_t seed = 1;
    int budget_evaluations = 200;  // lets a strategy plan (auto: does the space fit?)
};

// Throws std::invalid_argument naming the valid names when `name` is not one of them.
std::unique_ptr<Strategy> make_strategy(const std::string& name, CandidatePool& pool,
                                        const StrategyOptions& options);

// "auto" first, then every concrete strategy.
const std::vector<std::string>& strategy_names();
std::string strategy_names_text();  // "auto, exhaustive, random, ..."

}  // namespace optiml::search
