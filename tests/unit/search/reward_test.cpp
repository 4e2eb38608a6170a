// The composite reward: its terms add up, and each moves the way its bottleneck wants.
#include "driver/search/reward.h"

#include <gtest/gtest.h>

#include <cmath>

namespace optiml::search {
namespace {

const RewardWeights kWeights;

RewardTerms terms(const Metrics& parent, const Metrics& node, const std::string& bottleneck,
                  double node_ms = 10.0, double judge = 0.0) {
    return reward_terms(10.0, node_ms, parent, node, bottleneck, judge, kWeights);
}

TEST(Reward, TermsAddUpToTheTotalAndTheCompositeReward) {
    const Metrics parent = {{"dram_bytes", 4e6}, {"registers_per_thread", 32}};
    const Metrics node = {{"dram_bytes", 2e6}, {"registers_per_thread", 40}};
    const RewardTerms t = terms(parent, node, "memory", 5.0, 0.8);
    EXPECT_NEAR(t.speedup, kWeights.speedup * std::log(2.0), 1e-12);
    EXPECT_NEAR(t.proxy, kWeights.proxy * std::log(2.0), 1e-12);
    EXPECT_NEAR(t.penalty, -kWeights.register_growth * 8.0, 1e-12);
    EXPECT_NEAR(t.judge, kWeights.judge * 0.8, 1e-12);
    EXPECT_DOUBLE_EQ(t.total, t.speedup + t.proxy + t.penalty + t.judge);
    EXPECT_DOUBLE_EQ(composite_reward(10.0, 5.0, parent, node, "memory", 0.8, kWeights), t.total);
}

TEST(Reward, SpeedupIsTheLogRatioOverTheOriginal) {
    EXPECT_GT(terms({}, {}, "", 8.0).speedup, 0.0);
    EXPECT_LT(terms({}, {}, "", 12.0).speedup, 0.0);
    EXPECT_DOUBLE_EQ(terms({}, {}, "", 10.0).speedup, 0.0);
    EXPECT_DOUBLE_EQ(terms({}, {}, "", 0.0).speedup, 0.0) << "no time, no term";
}

TEST(Reward, MemoryBoundWantsLessDramTraffic) {
    EXPECT_GT(terms({{"dram_bytes", 2e6}}, {{"dram_bytes", 1e6}}, "memory").proxy, 0.0);
    EXPECT_LT(terms({{"dram_bytes", 1e6}}, {{"dram_bytes", 2e6}}, "memory").proxy, 0.0);
    // Fewer instructions do not count for a memory-bound kernel.
    EXPECT_DOUBLE_EQ(
        terms({{"instructions_executed", 2e6}}, {{"instructions_executed", 1e6}}, "memory").proxy,
        0.0);
}

TEST(Reward, ComputeBoundWantsFewerInstructions) {
    EXPECT_GT(
        terms({{"instructions_executed", 2e6}}, {{"instructions_executed", 1e6}}, "compute").proxy,
        0.0);
    EXPECT_LT(
        terms({{"instructions_executed", 1e6}}, {{"instructions_executed", 3e6}}, "compute").proxy,
        0.0);
    EXPECT_DOUBLE_EQ(terms({{"dram_bytes", 2e6}}, {{"dram_bytes", 1e6}}, "compute").proxy, 0.0);
}

TEST(Reward, LatencyBoundWantsOccupancy) {
    const RewardTerms up =
        terms({{"achieved_occupancy_pct", 25}}, {{"achieved_occupancy_pct", 75}}, "latency");
    EXPECT_NEAR(up.proxy, kWeights.proxy * 0.5, 1e-12);
    EXPECT_DOUBLE_EQ(up.penalty, 0.0);
    const RewardTerms down =
        terms({{"achieved_occupancy_pct", 75}}, {{"achieved_occupancy_pct", 25}}, "latency");
    EXPECT_LT(down.proxy, 0.0);
    EXPECT_NEAR(down.penalty, -kWeights.occupancy_loss * 0.5, 1e-12) << "a loss is a guardrail too";
}

TEST(Reward, AMissingMetricOrDiagnosisContributesNothing) {
    EXPECT_DOUBLE_EQ(terms({}, {{"dram_bytes", 1e6}}, "memory").proxy, 0.0);
    EXPECT_DOUBLE_EQ(terms({{"dram_bytes", 2e6}}, {}, "memory").proxy, 0.0);
    EXPECT_DOUBLE_EQ(terms({{"dram_bytes", 2e6}}, {{"dram_bytes", 1e6}}, "").proxy, 0.0);
    EXPECT_DOUBLE_EQ(terms({{"registers_per_thread", 32}}, {}, "").penalty, 0.0);
    EXPECT_DOUBLE_EQ(terms({}, {}, "memory").total, 0.0);
}

TEST(Reward, GuardrailsCostRegistersSpillsAndOccupancyButNeverPay) {
    EXPECT_LT(terms({{"registers_per_thread", 32}}, {{"registers_per_thread", 64}}, "").penalty,
              0.0);
    EXPECT_DOUBLE_EQ(
        terms({{"registers_per_thread", 64}}, {{"registers_per_thread", 32}}, "").penalty, 0.0);
    const RewardTerms spills = terms({{"spill_store_bytes", 0}, {"spill_load_bytes", 0}},
                                     {{"spill_store_bytes", 8}, {"spill_load_bytes", 8}}, "");
    EXPECT_NEAR(spills.penalty, -kWeights.spill * std::log1p(16.0), 1e-12);
    EXPECT_NEAR(terms({{"spill_bytes", 0}}, {{"spill_bytes", 16}}, "").penalty, spills.penalty,
                1e-12);
    EXPECT_LT(terms({{"achieved_occupancy_pct", 50}}, {{"achieved_occupancy_pct", 40}}, "").penalty,
              0.0);
}

TEST(Reward, ARejectedNodeScoresOnlyTheFixedPenalty) {
    const RewardTerms t = rejected_terms(kWeights);
    EXPECT_DOUBLE_EQ(t.total, kWeights.rejected);
    EXPECT_DOUBLE_EQ(t.penalty, kWeights.rejected);
    EXPECT_DOUBLE_EQ(t.speedup + t.proxy + t.judge, 0.0);
    EXPECT_LT(t.total, 0.0);
}

}  // namespace
}  // namespace optiml::search
