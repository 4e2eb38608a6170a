// A tuning's throughput from its trace: evaluations a minute, compile and worker time, and how
// busy the workers of the GPUs that took part were.
#include <gtest/gtest.h>

#include "driver/tune/detail/throughput.h"

namespace optiml::tune {
namespace {

search::TraceItem item(double compile_ms, double verify_ms, double extra_ms, double timing_ms) {
    search::TraceItem row;
    row.outcome.details.compile_ms = compile_ms;
    row.outcome.details.verify_ms = verify_ms;
    row.outcome.details.extra_sizes_verify_ms = extra_ms;
    row.outcome.details.timing_ms = timing_ms;
    return row;
}

TEST(Throughput, SumsTheTraceAgainstTheWallTime) {
    search::Result result;
    result.wall_s = 3.0;
    result.trace = {item(500, 400, 100, 500), item(500, 300, 0, 200), item(0, 0, 0, 0)};
    const Throughput t = summarize_throughput(result, 1);
    EXPECT_DOUBLE_EQ(t.evaluations_per_minute, 60.0);  // 3 in 3 s
    EXPECT_DOUBLE_EQ(t.compile_s, 1.0);
    EXPECT_DOUBLE_EQ(t.worker_s, 1.5);
    EXPECT_DOUBLE_EQ(t.compile_fraction, 1.0 / 3.0);
    EXPECT_DOUBLE_EQ(t.worker_busy_fraction, 0.5);
}

TEST(Throughput, StreamingCountsTheGpusWaitAndTheImageCachesHits) {
    search::Result result;
    result.wall_s = 6.0;
    result.trace = {item(2000, 100, 0, 100), item(1500, 100, 0, 100), item(1, 100, 0, 100)};
    result.trace[0].outcome.details.compile_wait_ms = 2000;  // the baseline waits alone
    result.trace[1].outcome.details.compile_wait_ms = 0;     // compiled while the GPU ran
    result.trace[2].outcome.details.compile_wait_ms = 0;
    result.trace[2].outcome.details.compile_cached = true;
    const Throughput t = summarize_throughput(result, 1);
    EXPECT_DOUBLE_EQ(t.compile_s, 3.501);
    EXPECT_DOUBLE_EQ(t.compile_wait_s, 2.0);
    EXPECT_DOUBLE_EQ(t.compile_fraction, 2.0 / 6.0);
    EXPECT_EQ(t.image_cache_hits, 1);
    EXPECT_DOUBLE_EQ(t.compiles_per_minute, 20.0);  // 2 NVRTC runs in 6 s
}

TEST(Throughput, SeveralGpusShareTheWorkersTime) {
    search::Result result;
    result.wall_s = 2.0;
    result.trace = {item(0, 1000, 0, 1000), item(0, 1000, 0, 1000)};
    EXPECT_DOUBLE_EQ(summarize_throughput(result, 2).worker_busy_fraction, 1.0);
    EXPECT_DOUBLE_EQ(summarize_throughput(result, 1).worker_busy_fraction, 2.0);
}

TEST(Throughput, AnEmptyOrInstantSearchIsZeroNotADivisionByZero) {
    const Throughput t = summarize_throughput(search::Result{}, 0);
    EXPECT_EQ(t.evaluations_per_minute, 0.0);
    EXPECT_EQ(t.worker_busy_fraction, 0.0);
    const nlohmann::json json = to_json(t);
    EXPECT_TRUE(json.contains("evaluations_per_minute") && json.contains("worker_busy_fraction"));
}

}  // namespace
}  // namespace optiml::tune
