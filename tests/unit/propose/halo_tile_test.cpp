// stage_halo: a 2-D stencil's input staged through a shared tile with the halo its reads reach.
// What it writes (every line in place), that NVRTC compiles it for sm_90, and where it declines or
// leaves a read as written. The host test (host/warp_rewrites_host_test.cpp) runs it against the
// original.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "driver/propose/detail/rewrites.h"
#include "tests/unit/propose/rewritten_text.h"

namespace optiml::propose {
namespace {

using testing::compiles;
using testing::lines;

std::string stencil2d() {
    // A path, not a string sum: GCC 12 at -O3 warns (array-bounds) on the inlined concatenation.
    std::ifstream in(std::filesystem::path(OPTIML_SOURCE_DIR) /
                     "bench/transformations/kernels/stencil2d.cu");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(StageHalo, AFivePointStencilReadsItsNeighboursFromATileWithAHaloOfOne) {
    const std::string original = stencil2d();
    const auto text = stage_halo(original, "stencil2d");
    ASSERT_TRUE(text);
    EXPECT_EQ(lines(*text), lines(original));
    for (const std::string piece :
         {// One tile, one row and column of halo each side, loaded before the early return.
          "int y = blockIdx.y * blockDim.y + threadIdx.y; const bool optiml_staged = "
          "blockDim.z == 1 && (blockDim.x) == blockDim.x && (blockDim.y) == blockDim.y && "
          "(blockDim.x + 2) * (blockDim.y + 2) <= 3200; __shared__ float optiml_halo[3200];",
          // A slot the thread to its right reads in the inside branch: the bound and the
          // branch evaluated there, the local index computed there.
          "if (!optiml_staged_need && (optiml_staged_u - 2) >= 0 && (optiml_staged_u - 2) < "
          "static_cast<int>(blockDim.x) && (optiml_staged_v - 1) >= 0 && (optiml_staged_v - 1) "
          "< static_cast<int>(blockDim.y)) { const int x = static_cast<int>(static_cast<int>"
          "(blockIdx.x * blockDim.x) + (optiml_staged_u - 2)); const int y = "
          "static_cast<int>(static_cast<int>(blockIdx.y * blockDim.y) + (optiml_staged_v - "
          "1)); int i = y * width + x; optiml_staged_need = !(x >= width || y >= height) && "
          "!(x == 0 || y == 0 || x == width - 1 || y == height - 1); }",
          "optiml_halo[optiml_staged_v * (blockDim.x + 2) + optiml_staged_u] = in[i]; } } "
          "__syncthreads();",
          "out[i] = (optiml_staged ? optiml_halo[(threadIdx.y + 1) * (blockDim.x + 2) + "
          "threadIdx.x + 1] : in[i]);",
          "(optiml_staged ? optiml_halo[(threadIdx.y + 2) * (blockDim.x + 2) + threadIdx.x + "
          "1] : in[i + width])"})
        EXPECT_NE(text->find(piece), std::string::npos) << piece << "\n" << *text;
    EXPECT_TRUE(compiles(*text, "stencil2d"));
    EXPECT_FALSE(stage_halo(*text, "stencil2d")) << "applied twice";
    // After load_through_ldg a read is the whole __ldg(&in[...]); a tile's slot has no global
    // address to load through it (the variant measured on an H100 before this failed to launch).
    const auto ldg = load_through_ldg(original, "stencil2d", {"in"});
    ASSERT_TRUE(ldg);
    const auto staged = stage_halo(*ldg, "stencil2d");
    ASSERT_TRUE(staged);
    EXPECT_NE(staged->find("optiml_halo[optiml_staged_v * (blockDim.x + 2) + optiml_staged_u] = "
                           "__ldg(&in[i]);"),
              std::string::npos)
        << *staged;
    EXPECT_NE(staged->find("(optiml_staged ? optiml_halo[(threadIdx.y + 1) * (blockDim.x + 2) + "
                           "threadIdx.x + 0] : __ldg(&in[i - 1]))"),
              std::string::npos)
        << *staged;
    EXPECT_EQ(staged->find("&(optiml_staged"), std::string::npos) << *staged;
    EXPECT_TRUE(compiles(*staged, "stencil2d"));
}

TEST(StageHalo, LeavesWhatTheTileCannotHoldAndDeclinesWithoutNeighbours) {
    const auto staged = [](const std::string& body) {
        return stage_halo(
            "__global__ void k(const float* a, float* b, const int* m, int n) {\n"
            "    int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    int y = blockIdx.y * blockDim.y + threadIdx.y;\n" +
                body + "}\n",
            "k");
    };
    // A column's neighbours only: a halo along y, none along x.
    const auto column = staged(
        "    if (x < n && y > 0 && y < n) { b[y * n + x] = a[y * n + x] - a[(y - 1) * n + x]; }\n");
    ASSERT_TRUE(column);
    EXPECT_NE(column->find("(blockDim.x + 0) * (blockDim.y + 1) <= 3200"), std::string::npos)
        << *column;
    EXPECT_TRUE(compiles(*column, "k"));
    // Reads behind && or in a loop might not run: they stay, and so do reads through a local
    // loaded from memory; what stays leaves one point of a: nothing to stage.
    EXPECT_FALSE(
        staged("    if (x > 0 && x < n && y < n) { b[y * n + x] = a[y * n + x] > 0 && "
               "a[y * n + x - 1] > 0; }\n"));
    EXPECT_FALSE(
        staged("    if (x > 0 && x < n && y < n) { float s = a[y * n + x]; for (int t = "
               "1; t < 2; ++t) s += a[y * n + x - t]; b[y * n + x] = s; }\n"));
    EXPECT_FALSE(
        staged("    if (x > 0 && x < n && y < n) { int o = m[y]; b[y * n + x] = a[o + x] "
               "+ a[o + x - 1]; }\n"));
    // An input the kernel also writes; a point index changed after it is computed; a barrier.
    EXPECT_FALSE(
        staged("    if (x > 0 && x < n && y < n) { b[y * n + x] = b[y * n + x] + b[y * n "
               "+ x - 1]; }\n"));
    EXPECT_FALSE(
        staged("    if (x > 0 && x < n && y < n) { x = x + 1; b[y * n + x] = a[y * n + "
               "x] + a[y * n + x - 1]; }\n"));
    EXPECT_FALSE(
        staged("    if (x > 0 && x < n && y < n) { __syncthreads(); b[y * n + x] = "
               "a[y * n + x] + a[y * n + x - 1]; }\n"));
}

}  // namespace
}  // namespace optiml::propose
