// register_block: a thread per element of a 2-D output computes rows x cols elements, their
// statements jammed. What it writes (every line in place), that NVRTC compiles it for sm_90 on
// PolyBench's gemm as written and after accumulate_in_register, and where it must not apply. The
// host test runs it bit for bit (host/loop_rewrites_host_test.cpp); the tuner verifies every
// variant on the GPU.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "driver/propose/detail/rewrites.h"
#include "driver/source/kernel_text.h"
#include "driver/source/rewrite_error.h"
#include "tests/unit/propose/rewritten_text.h"

namespace optiml::propose {
namespace {

using testing::compiles;
using testing::lines;

std::string gemm() {
    std::ifstream in(std::string(OPTIML_SOURCE_DIR) + "/tests/data/kernels/gemm/gemm.cu");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string accumulated(std::string text) {
    for (const auto& loop : source::find_kernel(text, "gemm_kernel").loops)
        if (auto next = accumulate_in_register(text, "gemm_kernel", loop.line)) return *next;
    return text;
}

TEST(RegisterBlock, AProductLoopRunsOnceForAllOfAThreadsElementsEachInItsOwnRegister) {
    const std::string original = accumulated(gemm());
    const auto text = register_block(original, "gemm_kernel", 4, 4);
    ASSERT_TRUE(text);
    EXPECT_EQ(lines(*text), lines(original));
    const std::string each =
        "for (int optiml_q = 0; optiml_q < 16; ++optiml_q) { int j = (blockIdx.x * 4 + optiml_q "
        "% 4) * blockDim.x + threadIdx.x; int i = (blockIdx.y * 4 + optiml_q / 4) * blockDim.y + "
        "threadIdx.y; (void)j; (void)i; ";
    for (const std::string& piece :
         {"bool optiml_all = true; " + each +
              "optiml_all = optiml_all && ((i < ni) && (j < nj)); } if (optiml_all)",
          // The C89 loop variable stays one, the loop runs once for all sixteen.
          std::string("int k;"), std::string("for(k=0; k < nk; k++)"),
          "float c_acc[16]; " + each + "c_acc[optiml_q] = c[i * nj + j]; }",
          each + "c_acc[optiml_q] += alpha * a[i * nk + k] * b[k * nj +j]; }",
          // At the grid's edges each element as written.
          "} else " + each + "[&]() { if ((i < ni) && (j < nj)) { c [ i * nj + j ] *= beta ;"})
        EXPECT_NE(text->find(piece), std::string::npos) << piece << "\n" << *text;
    EXPECT_TRUE(compiles(*text, "gemm_kernel"));
    EXPECT_FALSE(register_block(*text, "gemm_kernel", 2, 2)) << "applied twice";
    // As PolyBench writes it too: the global element's update runs per element inside the loop.
    const auto plain = register_block(gemm(), "gemm_kernel", 2, 4);
    ASSERT_TRUE(plain);
    EXPECT_TRUE(compiles(*plain, "gemm_kernel"));
    EXPECT_THROW(register_block(original, "gemm_kernel", 1, 1), source::RewriteError);
    EXPECT_THROW(register_block(original, "gemm_kernel", 16, 8), source::RewriteError);
}

TEST(RegisterBlock, DeclinesWhatJammedElementsCouldNotShare) {
    const auto applies = [](const std::string& body) {
        const std::string text =
            "__global__ void k(const float* a, float* c, int n, int m) {\n"
            "    int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    int y = blockIdx.y * blockDim.y + threadIdx.y;\n" +
            body + "}\n";
        return register_block(text, "k", 2, 2).has_value();
    };
    EXPECT_TRUE(
        applies("    if (x < n && y < m) { float s = 0; for (int t = 0; t < n; ++t) s += "
                "a[y * n + t]; c[y * n + x] = s; }\n"));
    // An early exit, a barrier, an else branch, a second statement, a builtin elsewhere.
    EXPECT_FALSE(applies("    if (x < n && y < m) { if (a[x] > 0) return; c[y * n + x] = 1; }\n"));
    EXPECT_FALSE(applies("    if (x < n && y < m) { __syncthreads(); c[y * n + x] = 1; }\n"));
    EXPECT_FALSE(applies("    if (x < n && y < m) { c[y * n + x] = 1; } else { c[0] = 0; }\n"));
    EXPECT_FALSE(applies("    if (x < n && y < m) { c[y * n + x] = 1; }\n    c[0] = 2;\n"));
    EXPECT_FALSE(applies("    if (x < n && y < m) { c[y * n + x] = threadIdx.x; }\n"));
    // A local the shared loop counts with, changed by an element's statement.
    EXPECT_FALSE(
        applies("    if (x < n && y < m) { int t; for (t = 0; t < n; ++t) { t += x; } "
                "c[y * n + x] = t; }\n"));
    // A local of a type it does not know would end up scoped to one element's statement.
    EXPECT_FALSE(applies("    if (x < n && y < m) { uint32_t s = x; c[y * n + x] = s; }\n"));
    // One axis only: coarsen_items' kind.
    EXPECT_FALSE(
        register_block("__global__ void k(float* c, int n) {\n    int x = blockIdx.x * "
                       "blockDim.x + threadIdx.x;\n    if (x < n) { c[x] = 1; }\n}\n",
                       "k", 2, 2));
}

}  // namespace
}  // namespace optiml::propose
