// Roofline classification. All inputs are constructed (not recorded): H200-like ceilings and
// counters computed from the kernels' known work, so the expected verdicts follow by arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "driver/analysis/analysis_error.h"
#include "driver/analysis/roofline.h"

namespace optiml::analysis {
namespace {

DeviceCeilings h200_like() {
    DeviceCeilings ceilings;
    ceilings.device = "constructed H200-like device";
    ceilings.dram_bytes_per_s = 4.0e12;
    ceilings.flops_per_s = {{"fp32", 6.0e13}, {"fp64", 3.0e13}, {"fp16", 1.2e14}};
    return ceilings;
}

// saxpy over n floats: reads x and y, writes y (12 bytes), one FMA (2 FLOPs) per element.
KernelCounters saxpy_at_bandwidth_fraction(double fraction) {
    const double n = 67108864.0;
    KernelCounters counters;
    counters.dram_bytes = 12.0 * n;
    counters.flops = {{"fp32", 2.0 * n}};
    counters.duration_s = counters.dram_bytes / (fraction * 4.0e12);
    counters.dram_throughput_pct = fraction * 100.0;
    counters.sm_throughput_pct = 15.0;
    counters.l1tex_throughput_pct = 30.0;
    return counters;
}

TEST(Roofline, SaxpyAtNinetyPercentOfBandwidthIsMemoryBound) {
    const KernelCounters counters = saxpy_at_bandwidth_fraction(0.9);
    const RooflineVerdict verdict = classify(counters, h200_like());

    EXPECT_EQ(verdict.bound, Bound::Memory);
    EXPECT_EQ(verdict.precision, "fp32");
    ASSERT_TRUE(verdict.arithmetic_intensity.has_value());
    EXPECT_NEAR(*verdict.arithmetic_intensity, 1.0 / 6.0, 1e-12);
    ASSERT_TRUE(verdict.ridge_point.has_value());
    EXPECT_DOUBLE_EQ(*verdict.ridge_point, 15.0);
    EXPECT_EQ(verdict.roof, "dram");
    EXPECT_EQ(verdict.limiter, "dram_roof");
    EXPECT_NEAR(verdict.fraction_of_roof, 0.9, 1e-12);
    EXPECT_NEAR(verdict.distance_fraction, 0.1, 1e-12);
    EXPECT_NEAR(verdict.time_at_roof_s, counters.dram_bytes / 4.0e12, 1e-15);
    EXPECT_NEAR(verdict.distance_s, counters.duration_s - verdict.time_at_roof_s, 1e-15);
    EXPECT_NEAR(verdict.attainable_flops_per_s, 4.0e12 / 6.0, 1.0);
    EXPECT_NEAR(verdict.achieved_bytes_per_s, 0.9 * 4.0e12, 1.0);
    EXPECT_NE(verdict.explanation.find("Memory-bound"), std::string::npos) << verdict.explanation;
    EXPECT_NE(verdict.explanation.find("below the ridge point"), std::string::npos)
        << verdict.explanation;
    EXPECT_EQ(verdict.explanation.back(), '.');
}

TEST(Roofline, GemmNearPeakIsComputeBound) {
    const double n = 4096.0;
    KernelCounters counters;
    counters.flops = {{"fp32", 2.0 * n * n * n}};
    counters.dram_bytes = 3.0 * n * n * 4.0;
    counters.duration_s = counters.flops["fp32"] / (0.75 * 6.0e13);
    counters.sm_throughput_pct = 80.0;
    counters.dram_throughput_pct = 8.0;
    counters.l1tex_throughput_pct = 55.0;

    const RooflineVerdict verdict = classify(counters, h200_like());
    EXPECT_EQ(verdict.bound, Bound::Compute);
    EXPECT_EQ(verdict.roof, "fp32");
    EXPECT_GT(*verdict.arithmetic_intensity, *verdict.ridge_point);
    EXPECT_NEAR(verdict.fraction_of_roof, 0.75, 1e-12);
    EXPECT_DOUBLE_EQ(verdict.attainable_flops_per_s, 6.0e13);
    EXPECT_NEAR(verdict.compute_utilization, 0.80, 1e-12);  // the SM's 80% beats the roof's 75%
    EXPECT_EQ(verdict.limiter, "sm_throughput");
    EXPECT_NE(verdict.explanation.find("Compute-bound"), std::string::npos);
}

TEST(Roofline, SmallKernelFarFromEveryCeilingIsLatencyBound) {
    KernelCounters counters;
    counters.duration_s = 5e-6;
    counters.dram_bytes = 4096.0;
    counters.flops = {{"fp32", 1024.0}};
    counters.sm_throughput_pct = 3.0;
    counters.dram_throughput_pct = 1.0;
    counters.l1tex_throughput_pct = 2.0;

    const RooflineVerdict verdict = classify(counters, h200_like());
    EXPECT_EQ(verdict.bound, Bound::Latency);
    EXPECT_EQ(verdict.limiter, "");
    EXPECT_LT(verdict.memory_utilization, kNearCeiling);
    EXPECT_LT(verdict.compute_utilization, kNearCeiling);
    EXPECT_LT(verdict.fraction_of_roof, 0.01);
    EXPECT_GT(verdict.distance_s, 4.9e-6);
    EXPECT_NE(verdict.explanation.find("Latency-bound"), std::string::npos);
}

TEST(Roofline, JustBelowTheThresholdIsLatencyJustAboveIsMemory) {
    EXPECT_EQ(classify(saxpy_at_bandwidth_fraction(0.59), h200_like()).bound, Bound::Latency);
    EXPECT_EQ(classify(saxpy_at_bandwidth_fraction(0.61), h200_like()).bound, Bound::Memory);
}

TEST(Roofline, BusyL1WithLittleDramTrafficIsMemoryBoundByL1) {
    KernelCounters counters = saxpy_at_bandwidth_fraction(0.2);
    counters.l1tex_throughput_pct = 85.0;
    const RooflineVerdict verdict = classify(counters, h200_like());
    EXPECT_EQ(verdict.bound, Bound::Memory);
    EXPECT_EQ(verdict.limiter, "l1tex_throughput");
    EXPECT_NEAR(verdict.fraction_of_roof, 0.2, 1e-12);  // the DRAM roof is still far
    EXPECT_NE(verdict.explanation.find("L1/TEX"), std::string::npos);
}

TEST(Roofline, ZeroDramBytesLeavesIntensityUndefinedAndUsesTheComputeRoof) {
    KernelCounters counters;
    counters.flops = {{"fp32", 6.0e10}};
    counters.duration_s = 1.25e-3;  // 6e10 / 6e13 = 1 ms at the roof: 80% of it
    const RooflineVerdict verdict = classify(counters, h200_like());
    EXPECT_FALSE(verdict.arithmetic_intensity.has_value());
    EXPECT_EQ(verdict.roof, "fp32");
    EXPECT_DOUBLE_EQ(verdict.attainable_flops_per_s, 6.0e13);
    EXPECT_NEAR(verdict.fraction_of_roof, 0.8, 1e-12);
    EXPECT_EQ(verdict.bound, Bound::Compute);
    EXPECT_NE(verdict.explanation.find("no DRAM traffic"), std::string::npos);
}

TEST(Roofline, ZeroFlopsIsAPureMemoryKernel) {
    KernelCounters counters;
    counters.dram_bytes = 8.0e9;
    counters.duration_s = 8.0e9 / (0.85 * 4.0e12);
    const RooflineVerdict verdict = classify(counters, h200_like());
    EXPECT_EQ(verdict.precision, "");
    EXPECT_FALSE(verdict.ridge_point.has_value());
    ASSERT_TRUE(verdict.arithmetic_intensity.has_value());
    EXPECT_EQ(*verdict.arithmetic_intensity, 0.0);
    EXPECT_EQ(verdict.attainable_flops_per_s, 0.0);
    EXPECT_EQ(verdict.roof, "dram");
    EXPECT_EQ(verdict.bound, Bound::Memory);
    EXPECT_NEAR(verdict.fraction_of_roof, 0.85, 1e-12);
    EXPECT_NE(verdict.explanation.find("no floating-point work"), std::string::npos);
}

TEST(Roofline, NoBytesAndNoFlopsHasNoRoofAndIsLatencyBound) {
    KernelCounters counters;
    counters.duration_s = 2e-6;
    const RooflineVerdict verdict = classify(counters, h200_like());
    EXPECT_EQ(verdict.roof, "");
    EXPECT_EQ(verdict.fraction_of_roof, 0.0);
    EXPECT_EQ(verdict.time_at_roof_s, 0.0);
    EXPECT_EQ(verdict.bound, Bound::Latency);
}

TEST(Roofline, DominantPrecisionIsTheSlowestAtItsPeak) {
    DeviceCeilings ceilings = h200_like();
    ceilings.flops_per_s["fp64"] = 1.0e12;  // a GPU with weak fp64
    KernelCounters counters;
    counters.flops = {{"fp32", 1.0e9}, {"fp64", 5.0e8}};
    counters.dram_bytes = 1.0e6;
    counters.duration_s = 1.0e-3;
    const RooflineVerdict verdict = classify(counters, ceilings);
    EXPECT_EQ(verdict.precision, "fp64");
    EXPECT_EQ(verdict.roof, "fp64");
    EXPECT_NEAR(verdict.fraction_of_roof, 0.5, 1e-12);  // 5e8 / 1e12 = 0.5 ms of 1 ms
}

TEST(Roofline, RejectsUnusableInputNamingTheField) {
    KernelCounters counters = saxpy_at_bandwidth_fraction(0.9);
    counters.duration_s = 0.0;
    try {
        classify(counters, h200_like());
        FAIL() << "expected AnalysisError";
    } catch (const AnalysisError& error) {
        EXPECT_NE(std::string(error.what()).find("counters.duration_s"), std::string::npos);
    }

    KernelCounters half = saxpy_at_bandwidth_fraction(0.9);
    half.flops = {{"bf16", 1.0e6}};
    try {
        classify(half, h200_like());
        FAIL() << "expected AnalysisError";
    } catch (const AnalysisError& error) {
        EXPECT_NE(std::string(error.what()).find("ceilings.flops_per_s.bf16"), std::string::npos)
            << error.what();
    }

    DeviceCeilings no_bandwidth = h200_like();
    no_bandwidth.dram_bytes_per_s = 0.0;
    EXPECT_THROW(classify(saxpy_at_bandwidth_fraction(0.9), no_bandwidth), AnalysisError);

    KernelCounters negative = saxpy_at_bandwidth_fraction(0.9);
    negative.dram_bytes = -1.0;
    EXPECT_THROW(classify(negative, h200_like()), AnalysisError);
}

TEST(Roofline, VerdictNamesRoundTrip) {
    for (Bound bound : {Bound::Memory, Bound::Compute, Bound::Latency}) {
        EXPECT_EQ(bound_from_string(to_string(bound)), bound);
    }
    EXPECT_FALSE(bound_from_string("io-bound").has_value());
}

}  // namespace
}  // namespace optiml::analysis
