// The metric catalogue: FLOPs by precision from SASS counts and the mapping onto the roofline's
// KernelCounters. Inputs are constructed here (named metric values), not recorded.
#include <gtest/gtest.h>

#include "driver/profile/metric_catalog.h"

namespace optiml::profile {
namespace {

TEST(MetricCatalog, ProxiesComeFirstInThePoolAndAreUnique) {
    const auto& proxies = proxy_metrics();
    const auto& pool = pool_metrics();
    ASSERT_GT(pool.size(), proxies.size());
    for (std::size_t i = 0; i < proxies.size(); ++i) EXPECT_EQ(pool[i], proxies[i]);
    std::set<std::string> unique(pool.begin(), pool.end());
    EXPECT_EQ(unique.size(), pool.size());
}

TEST(MetricCatalog, AnFmaCountsTwoFlopsAndPrecisionsStaySeparate) {
    const auto flops = flops_by_precision({
        {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 100.0},
        {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 10.0},
        {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 1.0},
        {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", 5.0},
        {"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum", 0.0},
    });
    ASSERT_EQ(flops.size(), 2u);  // fp16 counted zero: the kernel does not use it
    EXPECT_DOUBLE_EQ(flops.at("fp32"), 211.0);
    EXPECT_DOUBLE_EQ(flops.at("fp64"), 10.0);
}

TEST(MetricCatalog, KernelCountersTakeTheMeasuredTimeOverTheProfiledDuration) {
    ProfileResult result;
    result.counters = {{"gpu__time_duration.sum", 2000.0},  // ns
                       {"dram__bytes_read.sum", 300.0},
                       {"dram__bytes_write.sum", 100.0},
                       {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 42.0}};
    result.function.registers_per_thread = 32;
    result.function.dynamic_shared_bytes = 1024;
    const auto profiled = kernel_counters(result);
    EXPECT_DOUBLE_EQ(profiled.duration_s, 2e-6);
    EXPECT_DOUBLE_EQ(profiled.dram_bytes, 400.0);
    EXPECT_EQ(profiled.sm_throughput_pct, 42.0);
    EXPECT_FALSE(profiled.dram_throughput_pct.has_value());  // not collected stays empty
    EXPECT_EQ(profiled.registers_per_thread, 32);
    EXPECT_EQ(profiled.dynamic_shared_bytes, 1024);
    EXPECT_DOUBLE_EQ(kernel_counters(result, 5e-6).duration_s, 5e-6);
}

}  // namespace
}  // namespace optiml::profile
