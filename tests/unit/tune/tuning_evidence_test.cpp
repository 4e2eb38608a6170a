// Which evaluated variants a tuning profiles for counter selection: a spread over the ranking by
// time, fastest and slowest included, never the winner or the baseline (profiled anyway), never a
// failed variant. Traces are constructed here.
#include <gtest/gtest.h>

#include "driver/tune/detail/tuning_evidence.h"

namespace optiml::tune {
namespace {

search::Result trace_of(const std::vector<double>& times_ms) {  // negative: a failed variant
    search::Result result;
    for (double ms : times_ms) {
        search::TraceItem item;
        item.outcome.ok = ms > 0;
        item.outcome.median_ms = ms;
        result.trace.push_back(item);
    }
    return result;
}

TEST(SpreadOfVariants, TakesAllCorrectOthersWhenFewFastestFirst) {
    search::Result result = trace_of({5.0, 3.0, -1.0, 4.0, 1.0});
    result.baseline = 0;
    result.best = 4;
    EXPECT_EQ(spread_of_variants(result, 12), (std::vector<std::size_t>{1, 3}));
}

TEST(SpreadOfVariants, SpreadsEvenlyOverTheRankingWhenMany) {
    std::vector<double> times;
    for (int i = 0; i < 30; ++i) times.push_back(100.0 - i);  // index 29 is the fastest
    search::Result result = trace_of(times);
    result.baseline = 0;
    result.best = 29;
    const auto chosen = spread_of_variants(result, 5);
    ASSERT_EQ(chosen.size(), 5u);
    EXPECT_EQ(chosen.front(), 28u);  // fastest apart from the winner
    EXPECT_EQ(chosen.back(), 1u);    // slowest apart from the baseline
    for (std::size_t i = 1; i < chosen.size(); ++i)
        EXPECT_LT(result.trace[chosen[i - 1]].outcome.median_ms,
                  result.trace[chosen[i]].outcome.median_ms);
}

}  // namespace
}  // namespace optiml::tune
