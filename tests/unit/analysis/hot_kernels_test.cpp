// Hot-kernel selection over constructed activity records (not recorded from a program).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/analysis/analysis_error.h"
#include "driver/analysis/hot_kernels.h"

namespace optiml::analysis {
namespace {

void launch(std::vector<KernelActivity>& records, const std::string& name,
            const std::string& demangled, std::uint64_t ns, int times, Dim3 grid = {1, 1, 1},
            Dim3 block = {256, 1, 1}) {
    for (int i = 0; i < times; ++i) records.push_back({name, demangled, ns, grid, block});
}

// gemm 1500 us (73.2%), softmax 400 us (19.5%), relu 100 us, copy 50 us: 2050 us in all.
std::vector<KernelActivity> program_records() {
    std::vector<KernelActivity> records;
    launch(records, "_ZN2nn7softmaxIfLi128EEEvPKfPfi",
           "void nn::softmax<float, 128>(float const*, float*, int)", 40'000, 10);
    launch(records, "_Z4gemmPKfS0_Pfi", "gemm(float const*, float const*, float*, int)", 500'000, 3,
           {64, 64, 1}, {16, 16, 1});
    launch(records, "relu_kernel", "", 20'000, 5);
    launch(records, "_Z4copyPKfPfi", "", 50'000, 1);
    return records;
}

TEST(HotKernels, AggregatesByNameAndSortsByTotalTime) {
    const HotKernelReport report = select_hot_kernels(program_records());
    EXPECT_EQ(report.total_ns, 2'050'000u);
    ASSERT_EQ(report.kernels.size(), 4u);
    EXPECT_EQ(report.kernels[0].short_name, "gemm");
    EXPECT_EQ(report.kernels[0].launches, 3u);
    EXPECT_EQ(report.kernels[0].total_ns, 1'500'000u);
    EXPECT_NEAR(report.kernels[0].share, 1500.0 / 2050.0, 1e-12);
    EXPECT_EQ(report.kernels[1].short_name, "softmax");
    EXPECT_EQ(report.kernels[1].launches, 10u);
    EXPECT_EQ(report.kernels[2].short_name, "relu_kernel");
    EXPECT_EQ(report.kernels[3].short_name, "copy");
    EXPECT_NEAR(report.kernels[3].cumulative_share, 1.0, 1e-12);
    EXPECT_EQ(report.kernels[0].grid, (Dim3{64, 64, 1}));
    EXPECT_EQ(report.kernels[0].block, (Dim3{16, 16, 1}));
}

TEST(HotKernels, SmallestPrefixAboveEightyPercent) {
    HotKernelOptions options;
    options.target = "app";
    const HotKernelReport report = select_hot_kernels(program_records(), options);
    EXPECT_EQ(report.hot_count, 2u);  // gemm alone is 73%, with softmax 93%
    EXPECT_NEAR(report.hot_share, 1900.0 / 2050.0, 1e-12);
    EXPECT_FALSE(report.capped);
    EXPECT_TRUE(report.kernels[0].hot);
    EXPECT_TRUE(report.kernels[1].hot);
    EXPECT_FALSE(report.kernels[2].hot);
    EXPECT_EQ(report.kernels[0].suggestion,
              "optiml_optimize_kernel(app SPEC kernels/gemm.optiml.json)");
    EXPECT_EQ(report.kernels[1].suggestion,
              "optiml_optimize_kernel(app SPEC kernels/softmax.optiml.json)");
    EXPECT_EQ(report.kernels[2].suggestion, "");
}

TEST(HotKernels, OneDominantKernelIsHotAlone) {
    std::vector<KernelActivity> records;
    launch(records, "saxpy", "", 900, 1);
    launch(records, "init", "", 100, 1);
    const HotKernelReport report = select_hot_kernels(records);
    EXPECT_EQ(report.hot_count, 1u);
    EXPECT_DOUBLE_EQ(report.hot_share, 0.9);
    EXPECT_EQ(report.kernels[0].suggestion,
              "optiml_optimize_kernel(<target> SPEC kernels/saxpy.optiml.json)");
}

TEST(HotKernels, CappedAtThreeWhenTimeIsSpreadThin) {
    std::vector<KernelActivity> records;
    for (const char* name : {"k_a", "k_b", "k_c", "k_d", "k_e"}) launch(records, name, "", 1000, 2);
    const HotKernelReport report = select_hot_kernels(records);
    EXPECT_EQ(report.hot_count, 3u);
    EXPECT_TRUE(report.capped);
    EXPECT_DOUBLE_EQ(report.hot_share, 0.6);
    EXPECT_EQ(report.kernels[0].name, "k_a");  // equal times: by name
    EXPECT_FALSE(report.kernels[3].hot);
}

TEST(HotKernels, NoLaunchesNoHotKernels) {
    const HotKernelReport report = select_hot_kernels({});
    EXPECT_EQ(report.total_ns, 0u);
    EXPECT_EQ(report.hot_count, 0u);
    EXPECT_TRUE(report.kernels.empty());
    EXPECT_NE(to_markdown(report).find("No kernel launches"), std::string::npos);
}

TEST(HotKernels, ShortNamesFromDemangledMangledAndPlainNames) {
    EXPECT_EQ(kernel_short_name("_Z5saxpyifPKfPf", ""), "saxpy");
    EXPECT_EQ(kernel_short_name("_ZN2ns6kernelEv", ""), "kernel");
    EXPECT_EQ(kernel_short_name("relu_kernel", ""), "relu_kernel");
    EXPECT_EQ(kernel_short_name("x",
                                "void at::native::vectorized_elementwise_kernel<4, "
                                "at::native::FillFunctor<float>, at::detail::Array<char*, 1>>(int, "
                                "at::native::FillFunctor<float>, at::detail::Array<char*, 1>)"),
              "vectorized_elementwise_kernel");
    EXPECT_EQ(kernel_short_name("y", "matmul(float const*, float const*, float*, int)"), "matmul");
    EXPECT_EQ(kernel_short_name("weird-name!", ""), "weird_name_");
}

TEST(HotKernels, MarkdownListsKernelsAndTheLinesToAdd) {
    HotKernelOptions options;
    options.target = "app";
    const std::string text = to_markdown(select_hot_kernels(program_records(), options));
    EXPECT_NE(text.find("optiml_optimize_kernel(app SPEC kernels/gemm.optiml.json)"),
              std::string::npos);
    EXPECT_NE(text.find("optiml_optimize_kernel(app SPEC kernels/softmax.optiml.json)"),
              std::string::npos);
    EXPECT_EQ(text.find("kernels/relu_kernel.optiml.json"), std::string::npos);
    EXPECT_NE(text.find("73.2%"), std::string::npos) << text;
}

TEST(HotKernels, RejectsOptionsOutOfRange) {
    HotKernelOptions zero_share;
    zero_share.time_share = 0.0;
    EXPECT_THROW(select_hot_kernels(program_records(), zero_share), AnalysisError);
    HotKernelOptions no_kernels;
    no_kernels.max_hot = 0;
    EXPECT_THROW(select_hot_kernels(program_records(), no_kernels), AnalysisError);
}

}  // namespace
}  // namespace optiml::analysis
