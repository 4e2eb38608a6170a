#include "driver/measure/statistics.h"

#include <gtest/gtest.h>

#include <random>

namespace optiml::measure {
namespace {

TEST(Statistics, MedianOfOddAndEvenCounts) {
    EXPECT_DOUBLE_EQ(estimate_median({3, 1, 2}).median, 2.0);
    EXPECT_DOUBLE_EQ(estimate_median({4, 1, 3, 2}).median, 2.5);
    EXPECT_EQ(estimate_median({}).runs, 0);
}

TEST(Statistics, TheIntervalBracketsTheMedianAndNarrowsWithMoreRuns) {
    std::mt19937 engine(1);
    std::normal_distribution<double> noise(1.0, 0.05);
    std::vector<double> few, many;
    for (int i = 0; i < 10; ++i) few.push_back(noise(engine));
    for (int i = 0; i < 400; ++i) many.push_back(noise(engine));
    const MedianEstimate a = estimate_median(few);
    const MedianEstimate b = estimate_median(many);
    EXPECT_LE(a.ci_low, a.median);
    EXPECT_GE(a.ci_high, a.median);
    EXPECT_LT(b.relative_width(), a.relative_width());
    EXPECT_LT(b.relative_width(), 0.02);
}

TEST(Statistics, IdenticalTimesGiveAZeroWidthInterval) {
    const MedianEstimate e = estimate_median(std::vector<double>(20, 0.5));
    EXPECT_DOUBLE_EQ(e.relative_width(), 0.0);
}

TEST(Statistics, AChallengerWinsOnlyBeyondTheSpread) {
    const MedianEstimate incumbent{1.00, 0.98, 1.02, 20, 0.9, 1.1};
    EXPECT_TRUE(beats({0.90, 0.89, 0.91, 20, 0.8, 1.0}, incumbent));
    EXPECT_FALSE(beats({0.99, 0.97, 1.01, 20, 0.9, 1.1}, incumbent))
        << "faster median, overlapping intervals";
    EXPECT_FALSE(beats({1.10, 1.09, 1.11, 20, 1.0, 1.2}, incumbent));
    EXPECT_FALSE(beats({0.5, 0.5, 0.5, 0, 0.5, 0.5}, incumbent)) << "no runs, no win";
}

}  // namespace
}  // namespace optiml::measure
