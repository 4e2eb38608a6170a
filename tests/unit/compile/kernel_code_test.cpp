// Comparing compiled images needs no GPU: nvcc and NVRTC compile here, and the comparisons read
// the CUBINs as ELF files.
#include "driver/compile/kernel_code.h"

#include "driver/compile/compile_request.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>

namespace optiml::compile {
namespace {

// Device code as a host program's file holds it once its host code is left out: an unroll factor
// kept in a namespace-scope constant, which NVRTC emits as a global of its own and nvcc drops.
const std::string kUnrolled =
    "#ifndef unroll_factor\n#define unroll_factor 1\n#endif\n"
    "constexpr int kUnroll = unroll_factor;\n"
    "__global__ void row_sums(const float* in, float* out, int rows, int cols) {\n"
    "    const int row = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (row >= rows) return;\n"
    "    float sum = 0.0f;\n"
    "#pragma unroll kUnroll\n"
    "    for (int c = 0; c < cols; ++c) sum += in[static_cast<long>(row) * cols + c];\n"
    "    out[row] = sum / cols;\n"
    "}\n";

CompileResult compiled(const std::string& text, Backend backend,
                       std::map<std::string, std::int64_t> defines = {}) {
    CompileRequest request;
    request.source_text = text;
    request.source_name = "row_sums.cu";
    request.name_expression = "row_sums";
    request.backend = backend;
    request.defines = std::move(defines);
    CompileResult result = compile(request);
    EXPECT_TRUE(result.ok) << to_string(backend) << ":\n" << result.log;
    return result;
}

TEST(KernelCode, NvrtcAndNvccAgreeOnTheKernelThoughNotOnTheFile) {
    for (const std::int64_t unroll : {1, 4}) {
        const CompileResult nvcc = compiled(kUnrolled, Backend::Nvcc, {{"unroll_factor", unroll}});
        const CompileResult nvrtc =
            compiled(kUnrolled, Backend::Nvrtc, {{"unroll_factor", unroll}});
        EXPECT_EQ(nvcc.lowered_name, nvrtc.lowered_name);
        // NVRTC's kUnroll: a global, its section and its address bank, every symbol renumbered.
        EXPECT_NE(nvcc.binary.size(), nvrtc.binary.size()) << "unroll " << unroll;
        EXPECT_TRUE(same_kernel_code(nvcc.binary, nvrtc.binary)) << "unroll " << unroll;
        EXPECT_TRUE(same_kernel_code(nvrtc.binary, nvcc.binary)) << "unroll " << unroll;
    }
}

TEST(KernelCode, OtherMachineCodeIsOtherKernelCode) {
    const CompileResult once = compiled(kUnrolled, Backend::Nvcc, {{"unroll_factor", 1}});
    const CompileResult four = compiled(kUnrolled, Backend::Nvrtc, {{"unroll_factor", 4}});
    EXPECT_FALSE(same_kernel_code(once.binary, four.binary));
    EXPECT_FALSE(same_kernel_code(once.binary, "not an ELF file"));
    EXPECT_FALSE(same_kernel_code("", ""));
}

TEST(KernelCode, LaunchAttributesCountWhereTheCodeIsTheSame) {
    // __launch_bounds__ sets the kernel's maximum block (an attribute of its .nv.info), which a
    // launch of a larger block fails on, though so small a kernel compiles to the same code.
    const std::string plain = kUnrolled;
    std::string bounded = kUnrolled;
    bounded.replace(bounded.find("__global__ void"), 15, "__global__ void __launch_bounds__(64)");
    const CompileResult a = compiled(plain, Backend::Nvcc);
    const CompileResult b = compiled(bounded, Backend::Nvrtc);
    EXPECT_FALSE(same_kernel_code(a.binary, b.binary));
}

TEST(KernelCode, DataTheCodeReadsCounts) {
    // A __constant__ table the kernel reads: another value is another program.
    const std::string table =
        "__constant__ float kScale[2] = {1.0f, SECOND};\n"
        "__global__ void row_sums(const float* in, float* out, int rows, int cols) {\n"
        "    const int row = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (row < rows) out[row] = in[row] * kScale[row & 1];\n"
        "}\n";
    const CompileResult two = compiled("#define SECOND 2.0f\n" + table, Backend::Nvcc);
    const CompileResult three = compiled("#define SECOND 3.0f\n" + table, Backend::Nvrtc);
    const CompileResult two_nvrtc = compiled("#define SECOND 2.0f\n" + table, Backend::Nvrtc);
    EXPECT_FALSE(same_kernel_code(two.binary, three.binary));
    EXPECT_TRUE(same_kernel_code(two.binary, two_nvrtc.binary));
}

}  // namespace
}  // namespace optiml::compile
