// Where a CUDA driver is installed, NVRTC 12.9 and later cache what they compile in the driver's
// compute cache, keyed without code-generation options: a --use_fast_math variant compiled after
// the plain one came back as the plain image (an H100, CUDA 13.0). Each option must give the
// image NVRTC makes for it, whatever was compiled before, in this process or an earlier one.
#include <gtest/gtest.h>
#include <unistd.h>

#include <ctime>
#include <string>
#include <vector>

#include "driver/compile/nvrtc_compiler.h"
#include "tests/gpu/gpu_present.h"

namespace optiml::compile {
namespace {

using optiml::test_support::gpu_present;

// Division and square roots: --use_fast_math, --ftz and --prec-div each change the code.
const char* kNormalize = R"(
__global__ void normalize(int n, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] / sqrtf(x[i] * x[i] + epsilon_millionths * 1e-6f);
}
)";

// A define no earlier process compiled with, so the first compile cannot come from a disk cache.
CompileRequest request(std::int64_t epsilon, std::vector<std::string> options) {
    CompileRequest r;
    r.source_text = kNormalize;
    r.source_name = "normalize.cu";
    r.name_expression = "normalize";
    r.defines = {{"epsilon_millionths", epsilon}};
    r.options = std::move(options);
    return r;
}

std::string image(std::int64_t epsilon, std::vector<std::string> options) {
    const CompileResult result = compile_with_nvrtc(request(epsilon, std::move(options)));
    EXPECT_TRUE(result.ok) << result.log;
    return result.binary;
}

std::int64_t fresh_define() {
    return 1000000 + static_cast<std::int64_t>(getpid()) * 16 +
           static_cast<std::int64_t>(std::time(nullptr) % 8);
}

TEST(NvrtcOptions, AFastMathVariantCompiledAfterThePlainOneIsItsOwnImage) {
    if (!gpu_present()) GTEST_SKIP() << "no CUDA GPU on this machine: NVRTC caches nothing";
    const std::int64_t epsilon = fresh_define();
    const std::string plain = image(epsilon, {});
    const std::string fast = image(epsilon, {"--use_fast_math"});
    const std::string flushed = image(epsilon, {"--ftz=true"});
    const std::string approximate_division = image(epsilon, {"--prec-div=false"});
    EXPECT_NE(fast, plain);
    EXPECT_NE(flushed, plain);
    EXPECT_NE(approximate_division, plain);
    EXPECT_EQ(image(epsilon, {}), plain);
}

TEST(NvrtcOptions, ThePlainVariantCompiledAfterAFastMathOneIsItsOwnImage) {
    if (!gpu_present()) GTEST_SKIP() << "no CUDA GPU on this machine: NVRTC caches nothing";
    const std::int64_t epsilon = fresh_define() + 8;
    const std::string fast = image(epsilon, {"--use_fast_math"});
    const std::string plain = image(epsilon, {});
    EXPECT_NE(plain, fast);
    EXPECT_EQ(image(epsilon, {"--use_fast_math"}), fast);
}

}  // namespace
}  // namespace optiml::compile
