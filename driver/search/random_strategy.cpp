// Uniform sampling without replacement: one seeded shuffle of the valid configurations (the
// default left out where run_search measures it first), proposed in that order. The same order as
// before strategies existed, so a seed still picks the same sample.
#include <algorithm>
#include <random>

#include "driver/search/detail/ordered_strategy.h"

namespace optiml::search {

std::unique_ptr<Strategy> make_random(CandidatePool& pool, const StrategyOptions& options) {
    const auto default_index = pool.find(pool.space().defaults);
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < pool.size(); ++i)
        if (i != default_index || !pool.taken(i)) order.push_back(i);
    std::mt19937_64 engine(options.seed);
    std::shuffle(order.begin(), order.end(), engine);
    return std::make_unique<OrderedStrategy>("random", pool, std::move(order));
}

}  // namespace optiml::search
