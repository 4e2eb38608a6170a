// Every valid configuration in enumeration order (lexicographic in value indices).
#include <numeric>

#include "driver/search/detail/ordered_strategy.h"

namespace optiml::search {

std::unique_ptr<Strategy> make_exhaustive(CandidatePool& pool, const StrategyOptions&) {
    std::vector<std::size_t> order(pool.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    return std::make_unique<OrderedStrategy>("exhaustive", pool, std::move(order));
}

}  // namespace optiml::search
