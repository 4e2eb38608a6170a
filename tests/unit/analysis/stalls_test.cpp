// Stall aggregation and filtering. The samples are constructed (not recorded), with counts chosen
// so every share is an exact binary fraction of 1000 stalled samples.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/analysis/analysis_error.h"
#include "driver/analysis/stalls.h"

namespace optiml::analysis {
namespace {

// 1000 stalled samples: line 12 long_scoreboard 600 (60%), line 14 barrier 250 (25%),
// line 10 short_scoreboard 100 (10%), line 14 long_scoreboard 50 (5%); plus 200 issuing samples
// and a latency-subset entry that must not be counted twice.
std::vector<StallSample> matmul_like_samples() {
    return {
        {"matmul.cu", 12, "smsp__pcsamp_warps_issue_stalled_long_scoreboard", 400},
        {"matmul.cu", 12, "long_scoreboard", 200},
        {"matmul.cu", 12, "selected", 200},
        {"matmul.cu", 12, "long_scoreboard_not_issued", 550},
        {"matmul.cu", 14, "barrier", 250},
        {"matmul.cu", 10, "short_scoreboard", 100},
        {"matmul.cu", 14, "long_scoreboard", 50},
    };
}

TEST(Stalls, KeepsOnlyStallsAboveTheDefaultThirtyPercent) {
    const StallSummary summary = summarize_stalls(matmul_like_samples());
    EXPECT_EQ(summary.total_samples, 1200u);
    EXPECT_EQ(summary.stalled_samples, 1000u);
    EXPECT_DOUBLE_EQ(summary.threshold, 0.30);
    ASSERT_EQ(summary.dominant.size(), 1u);
    const DominantStall& stall = summary.dominant[0];
    EXPECT_EQ(stall.id, "stall-1");
    EXPECT_EQ(stall.file, "matmul.cu");
    EXPECT_EQ(stall.line, 12);
    EXPECT_EQ(stall.reason, "long_scoreboard");  // prefixed and plain names merged
    EXPECT_EQ(stall.samples, 600u);
    EXPECT_DOUBLE_EQ(stall.share, 0.6);
    EXPECT_NE(stall.description.find("global"), std::string::npos) << stall.description;
}

TEST(Stalls, LowerThresholdKeepsMoreWithIdsInOrderOfShare) {
    const StallSummary summary = summarize_stalls(matmul_like_samples(), 0.08);
    ASSERT_EQ(summary.dominant.size(), 3u);
    EXPECT_EQ(summary.dominant[0].id, "stall-1");
    EXPECT_EQ(summary.dominant[0].line, 12);
    EXPECT_EQ(summary.dominant[1].id, "stall-2");
    EXPECT_EQ(summary.dominant[1].reason, "barrier");
    EXPECT_DOUBLE_EQ(summary.dominant[1].share, 0.25);
    EXPECT_NE(summary.dominant[1].description.find("__syncthreads"), std::string::npos);
    EXPECT_EQ(summary.dominant[2].id, "stall-3");
    EXPECT_EQ(summary.dominant[2].reason, "short_scoreboard");
}

TEST(Stalls, AShareEqualToTheThresholdIsNotDominant) {
    const StallSummary summary = summarize_stalls(matmul_like_samples(), 0.25);
    ASSERT_EQ(summary.dominant.size(), 1u);
    EXPECT_EQ(summary.dominant[0].reason, "long_scoreboard");
}

TEST(Stalls, EqualSharesAreOrderedByFileThenLine) {
    const std::vector<StallSample> samples = {{"b.cu", 3, "wait", 40},
                                              {"a.cu", 9, "wait", 40},
                                              {"a.cu", 2, "wait", 40},
                                              {"a.cu", 5, "misc", 5}};
    const StallSummary summary = summarize_stalls(samples, 0.2);
    ASSERT_EQ(summary.dominant.size(), 3u);
    EXPECT_EQ(summary.dominant[0].file + ":" + std::to_string(summary.dominant[0].line), "a.cu:2");
    EXPECT_EQ(summary.dominant[1].file + ":" + std::to_string(summary.dominant[1].line), "a.cu:9");
    EXPECT_EQ(summary.dominant[2].file + ":" + std::to_string(summary.dominant[2].line), "b.cu:3");
}

TEST(Stalls, UnknownReasonPassesThroughWithAGenericDescription) {
    const std::vector<StallSample> samples = {{"k.cu", 7, "tensor_wait_future", 90},
                                              {"k.cu", 8, "wait", 10}};
    const StallSummary summary = summarize_stalls(samples);
    ASSERT_EQ(summary.dominant.size(), 1u);
    EXPECT_EQ(summary.dominant[0].reason, "tensor_wait_future");
    EXPECT_NE(summary.dominant[0].description.find("not in OptiML's table"), std::string::npos);
    EXPECT_NE(summary.dominant[0].description.find("tensor_wait_future"), std::string::npos);
}

TEST(Stalls, EveryHopperReasonHasItsOwnDescription) {
    const std::string generic = describe_stall_reason("no_such_reason");
    for (const char* reason :
         {"long_scoreboard", "short_scoreboard", "wait", "barrier", "math_pipe_throttle",
          "mio_throttle", "lg_throttle", "not_selected", "selected", "dispatch_stall",
          "no_instructions", "imc_miss", "branch_resolving", "drain", "sleeping", "membar",
          "tex_throttle", "misc", "gmma"}) {
        const std::string description = describe_stall_reason(reason);
        EXPECT_FALSE(description.empty()) << reason;
        EXPECT_EQ(description.find("not in OptiML's table"), std::string::npos) << reason;
        EXPECT_EQ(description.find('\n'), std::string::npos) << reason;
    }
    EXPECT_EQ(describe_stall_reason("smsp__pcsamp_warps_issue_stalled_barrier"),
              describe_stall_reason("barrier"));
}

TEST(Stalls, FlaggedNotStalledSamplesCountOnlyInTheTotal) {
    std::vector<StallSample> samples = {{"k.cu", 3, "long_scoreboard", 70},
                                        {"k.cu", 4, "wait", 30}};
    samples.push_back({"k.cu", 4, "math_pipe_throttle", 500, /*not_stalled=*/true});
    const StallSummary summary = summarize_stalls(samples);
    EXPECT_EQ(summary.total_samples, 600u);
    EXPECT_EQ(summary.stalled_samples, 100u);
    ASSERT_EQ(summary.dominant.size(), 1u);
    EXPECT_DOUBLE_EQ(summary.dominant[0].share, 0.7);
}

TEST(Stalls, NoStalledSamplesMeansNoDominantStall) {
    EXPECT_TRUE(summarize_stalls({}).dominant.empty());
    const StallSummary issuing = summarize_stalls({{"k.cu", 1, "selected", 10}});
    EXPECT_EQ(issuing.total_samples, 10u);
    EXPECT_EQ(issuing.stalled_samples, 0u);
    EXPECT_TRUE(issuing.dominant.empty());
}

TEST(Stalls, ByLineAggregatesStalledSamplesPerReason) {
    const std::vector<LineStalls> lines = stalls_by_line(matmul_like_samples());
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0].line, 12);
    EXPECT_EQ(lines[0].stalled_samples, 600u);
    EXPECT_EQ(lines[0].by_reason.size(), 1u);
    EXPECT_EQ(lines[0].by_reason.at("long_scoreboard"), 600u);
    EXPECT_EQ(lines[1].line, 14);
    EXPECT_EQ(lines[1].stalled_samples, 300u);
    EXPECT_EQ(lines[1].by_reason.at("barrier"), 250u);
    EXPECT_EQ(lines[1].by_reason.at("long_scoreboard"), 50u);
    EXPECT_EQ(lines[2].line, 10);
}

TEST(Stalls, RejectsAThresholdOutsideZeroToOne) {
    EXPECT_THROW(summarize_stalls(matmul_like_samples(), 1.0), AnalysisError);
    EXPECT_THROW(summarize_stalls(matmul_like_samples(), -0.1), AnalysisError);
    try {
        summarize_stalls(matmul_like_samples(), 30.0);
        FAIL() << "expected AnalysisError";
    } catch (const AnalysisError& error) {
        EXPECT_NE(std::string(error.what()).find("threshold"), std::string::npos);
    }
}

}  // namespace
}  // namespace optiml::analysis
