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

// Staged: the product loop's operands come from shared tiles the block loads 16 steps at a time;
// the loop runs over one slab of them between two barriers, and only blocks whose elements are
// all in bounds (voted with __syncthreads_and) take that path.
TEST(RegisterBlock, StagesAProductsOperandsThroughSharedTiles) {
    const std::string original = accumulated(gemm());
    for (const int side : {1, 2}) {
        const auto text = register_block(original, "gemm_kernel", side, side, 16);
        ASSERT_TRUE(text) << side;
        EXPECT_EQ(lines(*text), lines(original));
        const std::string rows = side == 1 ? "blockDim.y" : "2 * blockDim.y";
        const std::string cols = side == 1 ? "blockDim.x" : "2 * blockDim.x";
        const std::string a_row =
            side == 1 ? "threadIdx.y" : "(optiml_q / 2 * blockDim.y + threadIdx.y)";
        const std::string b_col =
            side == 1 ? "threadIdx.x" : "(optiml_q % 2 * blockDim.x + threadIdx.x)";
        for (const std::string& piece :
             {rows + " <= 64 && " + cols + " <= 128 && __syncthreads_and(optiml_all))",
              std::string("{ __shared__ float optiml_tile[1088]; __shared__ float "
                          "optiml_tile_2[2064];"),
              std::string("for (int optiml_slab = 0; optiml_slab < (nk); optiml_slab += 16) { "
                          "__syncthreads(); "),
              // A's rows are read along k, B's slab along its columns: coalesced both.
              "const unsigned optiml_slab_at = optiml_slab_e / 16; const int k = optiml_slab + "
              "static_cast<int>(optiml_slab_e % 16); if (k < (nk)) { const int i = "
              "static_cast<int>(blockIdx.y * (" +
                  rows +
                  ") + optiml_slab_at); optiml_tile[optiml_slab_at * 17 + (k - "
                  "optiml_slab)] = a[i * nk + k]; }",
              "const unsigned optiml_slab_at = optiml_slab_e % (" + cols +
                  "); const int k = optiml_slab + static_cast<int>(optiml_slab_e / (" + cols +
                  "));",
              std::string("__syncthreads(); for(k=optiml_slab; k < (nk) && k < optiml_slab + 16; "
                          "k++)"),
              "c_acc[optiml_q] += alpha * optiml_tile[" + a_row +
                  " * 17 + (k - optiml_slab)] * optiml_tile_2[(k - optiml_slab) * (" + cols +
                  " + 1) + " + b_col + "]; }"})
            EXPECT_NE(text->find(piece), std::string::npos) << piece << "\n" << *text;
        EXPECT_TRUE(compiles(*text, "gemm_kernel")) << side;
        EXPECT_FALSE(register_block(*text, "gemm_kernel", 1, 1, 16)) << "applied twice";
    }
    // As PolyBench writes it too.
    const auto plain = register_block(gemm(), "gemm_kernel", 4, 4, 8);
    ASSERT_TRUE(plain);
    EXPECT_TRUE(compiles(*plain, "gemm_kernel"));
    EXPECT_THROW(register_block(original, "gemm_kernel", 1, 1, 1), source::RewriteError);
    EXPECT_THROW(register_block(original, "gemm_kernel", 2, 2, 65), source::RewriteError);
}

// syrk's A A^T reads one pointer along both axes (two tiles of it); what a tile could not hold
// the same for a whole row or column of the block is left a global read, and a loop with none to
// stage is declined.
TEST(RegisterBlock, StagesOnlyOperandsTheBlockShares) {
    const auto staged = [](const std::string& body) {
        return register_block(
            "__global__ void k(const float* a, const float* v, float* c, int n, int m) {\n"
            "    int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    int y = blockIdx.y * blockDim.y + threadIdx.y;\n" +
                body + "}\n",
            "k", 1, 1, 16);
    };
    const auto syrk = staged(
        "    if (x < n && y < n) { float s = 0; for (int t = 0; t < m; t++) s += a[y * m + t] * "
        "a[x * m + t]; c[y * n + x] = s; }\n");
    ASSERT_TRUE(syrk);
    EXPECT_NE(syrk->find("s[optiml_q] += optiml_tile[threadIdx.y * 17 + (t - optiml_slab)] * "
                         "optiml_tile_2[(t - optiml_slab) * (blockDim.x + 1) + threadIdx.x];"),
              std::string::npos)
        << *syrk;
    EXPECT_TRUE(compiles(*syrk, "k"));
    // v[t] is the same for every thread (left to the cache); a[o + t] reads a per-thread local.
    const auto vector = staged(
        "    if (x < n && y < n) { float s = 0; for (int t = 0; t < m; t++) s += v[t] * "
        "a[y * m + t]; c[y * n + x] = s; }\n");
    ASSERT_TRUE(vector);
    EXPECT_NE(vector->find("s[optiml_q] += v[t] * optiml_tile["), std::string::npos) << *vector;
    EXPECT_FALSE(
        staged("    if (x < n && y < n) { float s = 0; for (int t = 0; t < m; t++) s += "
               "v[t]; c[y * n + x] = s; }\n"));
    EXPECT_FALSE(
        staged("    if (x < n && y < n) { float s = 0; int o = y * m; for (int t = 0; t < "
               "m; t++) s += a[o + t]; c[y * n + x] = s; }\n"));
    // A triangular loop's bound differs from row to row; a written operand may change under it.
    EXPECT_FALSE(
        staged("    if (x < n && y < n) { float s = 0; for (int t = 0; t < y; t++) s += "
               "a[y * m + t]; c[y * n + x] = s; }\n"));
    EXPECT_FALSE(register_block(
        "__global__ void k(float* a, float* c, int n) {\n"
        "    int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
        "    if (x < n && y < n) { for (int t = 0; t < n; t++) c[y * n + x] += a[y * n + t]; "
        "a[y * n + x] = 0; }\n}\n",
        "k", 1, 1, 16));
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
    // A local of a type named by one name (a typedef, PolyBench's DATA_TYPE) is read; a
    // declaration it does not read would end up scoped to one element's statement.
    EXPECT_TRUE(applies("    if (x < n && y < m) { uint32_t s = x; c[y * n + x] = s; }\n"));
    EXPECT_FALSE(
        applies("    if (x < n && y < m) { uint32_t s[1]; s[0] = x; c[y * n + x] = s[0]; }\n"));
    // One axis only: coarsen_items' kind.
    EXPECT_FALSE(
        register_block("__global__ void k(float* c, int n) {\n    int x = blockIdx.x * "
                       "blockDim.x + threadIdx.x;\n    if (x < n) { c[x] = 1; }\n}\n",
                       "k", 2, 2));
}

}  // namespace
}  // namespace optiml::propose
