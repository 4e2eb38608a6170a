// The calibration kernels compile with the real NVRTC for the GPUs OptiML tunes on, and the
// arithmetic that turns their times into ceilings counts what they do.
#include <map>

#include <gtest/gtest.h>

#include "driver/compile/nvrtc_compiler.h"
#include "driver/profile/detail/calibration_kernels.h"

namespace optiml::profile {
namespace {

TEST(CalibrationKernels, EveryKernelCompilesWithNvrtcWithoutHeaders) {
    for (const int arch : {80, 90}) {
        for (const auto& kernel : calibration_kernels()) {
            compile::CompileRequest request;
            request.source_text = calibration_source();
            request.source_name = "optiml_calibration.cu";
            request.name_expression = kernel.symbol;
            request.arch = arch;
            const auto result = compile::compile(request);
            ASSERT_TRUE(result.ok) << kernel.symbol << " sm_" << arch << ":\n" << result.log;
            EXPECT_EQ(result.lowered_name, kernel.symbol);  // extern "C": the name is the symbol
        }
    }
}

TEST(CalibrationKernels, CountsBytesAndFlopsOfOneLaunch) {
    std::map<std::string, std::uint64_t> bytes;
    for (const auto& kernel : calibration_kernels())
        if (kernel.precision == "dram") bytes[kernel.pattern] = bandwidth_bytes(kernel);
    EXPECT_EQ(bytes.at("copy"), 2 * kCopyElements * 16);
    EXPECT_EQ(bytes.at("read"), kCopyElements * 16);
    EXPECT_EQ(bytes.at("read2_write1"), 3 * kCopyElements * 16);
    const double threads = 132.0 * kFmaBlocksPerSm * kFmaBlock;
    EXPECT_DOUBLE_EQ(fma_flops("fp32", 132), threads * kFmaIterations * kFmaChains * 2.0);
    EXPECT_DOUBLE_EQ(fma_flops("fp16", 132), 2.0 * fma_flops("fp32", 132));  // half2: 2 FMAs
}

}  // namespace
}  // namespace optiml::profile
