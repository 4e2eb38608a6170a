// spec/ may not depend on search/, so budget.strategy's accepted names are a list of their own:
// it must name exactly the search's strategies.
#include <gtest/gtest.h>

#include "driver/search/strategy.h"
#include "driver/spec/spec.h"

namespace optiml::search {
namespace {

TEST(StrategyNames, TheSpecAcceptsExactlyTheSearchsStrategies) {
    const std::vector<std::string> in_spec(spec::kSearchStrategies.begin(),
                                           spec::kSearchStrategies.end());
    EXPECT_EQ(in_spec, strategy_names());
}

}  // namespace
}  // namespace optiml::search
