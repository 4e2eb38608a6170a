// The EAR metrics' arithmetic, and the effects cited evidence implies.
#include <gtest/gtest.h>

#include "driver/llm/ear_metrics.h"
#include "scripted_endpoint.h"

namespace optiml::llm {
namespace {

Change change(int first, int last, std::vector<std::string> evidence) {
    return {first, last, "", std::move(evidence)};
}

TEST(EarMetrics, EvidenceCoverageCountsChangesCitingAValidId) {
    const std::vector<std::string> valid = {"metrics", "roofline", "stall-1"};
    EXPECT_DOUBLE_EQ(
        *evidence_coverage({change(1, 2, {"roofline"}), change(3, 3, {"stall-9"}),
                            change(4, 4, {"stall-9", "stall-1"}), change(5, 5, {"counter-1"})},
                           valid),
        0.5);
    EXPECT_FALSE(evidence_coverage({}, valid));
}

TEST(EarMetrics, LocalizationIsTheShareOfHotspotLinesAChangeCovers) {
    EXPECT_DOUBLE_EQ(
        *localization_agreement({change(10, 12, {}), change(20, 20, {})}, {11, 20, 30}), 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(*localization_agreement({change(1, 2, {})}, {5}), 0.0);
    EXPECT_FALSE(localization_agreement({change(1, 2, {})}, {}));
}

TEST(EarMetrics, DirectionalConsistencyIsHeldOverMoved) {
    EXPECT_DOUBLE_EQ(*directional_consistency({3, 1, 5}), 0.75);
    EXPECT_FALSE(directional_consistency({0, 0, 2}));
}

TEST(EarMetrics, HotspotsAreDominantStallLinesInsideTheKernel) {
    auto report = testing::scale_evidence();
    report.stalls->dominant.push_back({"stall-2", "scale.cu", 5, "math", 100, 0.31, ""});
    report.stalls->dominant.push_back({"stall-3", "scale.cu", 40, "math", 100, 0.31, ""});
    EXPECT_EQ(hotspot_lines(report, 3, 6), (std::vector<int>{5}));
}

TEST(EarMetrics, CitedEvidenceImpliesEffects) {
    auto report = testing::scale_evidence();
    EXPECT_EQ(implied_effects({"roofline", "stall-1", "stall-7", "metrics"}, report),
              (std::vector<search::Effect>{{"dram_bytes", -1}, {"l1tex_sectors", -1}}));
    report.roofline->bound = analysis::Bound::Latency;
    EXPECT_EQ(implied_effects({"roofline"}, report),
              (std::vector<search::Effect>{{"achieved_occupancy_pct", +1}}));
}

TEST(EarMetrics, MeansSkipMissingScores) {
    const EarScores mean = mean_scores({{1.0, std::nullopt, 0.5}, {0.5, 0.25, std::nullopt}});
    EXPECT_DOUBLE_EQ(*mean.evidence_coverage, 0.75);
    EXPECT_DOUBLE_EQ(*mean.localization, 0.25);
    EXPECT_DOUBLE_EQ(*mean.directional, 0.5);
    EXPECT_FALSE(mean_scores({}).evidence_coverage);
    EXPECT_TRUE(to_json(mean_scores({}))["localization"].is_null());
}

}  // namespace
}  // namespace optiml::llm
