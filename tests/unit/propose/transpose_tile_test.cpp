// transpose_through_shared: a naive transpose staged through a padded shared tile. What it
// writes (every line in place), that NVRTC compiles it for sm_90, and where it declines. The host
// test (host/warp_rewrites_host_test.cpp) runs it against the original.
#include <gtest/gtest.h>

#include <string>

#include "driver/propose/detail/rewrites.h"
#include "tests/unit/propose/rewritten_text.h"

namespace optiml::propose {
namespace {

using testing::compiles;
using testing::lines;

const std::string kNaive =
    R"(__global__ void transpose(int rows, int cols, const float* in, float* out) {
    int x = blockIdx.x * block_size_x + threadIdx.x;
    int y = blockIdx.y * block_size_y + threadIdx.y;
    if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}
)";

TEST(TransposeThroughShared, TheTileIsStagedAndWrittenRowByRow) {
    const auto text = transpose_through_shared(kNaive, "transpose");
    ASSERT_TRUE(text);
    EXPECT_EQ(lines(*text), lines(kNaive));
    EXPECT_NE(text->find("__shared__ float optiml_tile[2048];"), std::string::npos) << *text;
    EXPECT_NE(text->find("if (x < cols && y < rows) optiml_tile[threadIdx.y * ((block_size_x) + "
                         "1) + threadIdx.x] = in[y * cols + x]; __syncthreads();"),
              std::string::npos)
        << *text;
    EXPECT_NE(text->find("out[x * rows + y] = optiml_tile[optiml_t % (block_size_y) * "
                         "((block_size_x) + 1) + optiml_t / (block_size_y)];"),
              std::string::npos)
        << *text;
    EXPECT_TRUE(compiles("#define block_size_x 32\n#define block_size_y 8\n" + *text, "transpose"));
    EXPECT_FALSE(transpose_through_shared(*text, "transpose")) << "applied twice";
}

TEST(TransposeThroughShared, DeclinesWhatIsNoPlainTranspose) {
    const auto declines = [](const std::string& body) {
        return !transpose_through_shared(
            "__global__ void k(int rows, int cols, const float* in, float* out) {\n" + body + "}\n",
            "k");
    };
    const std::string x = "    int x = blockIdx.x * block_size_x + threadIdx.x;\n";
    const std::string y = "    int y = blockIdx.y * block_size_y + threadIdx.y;\n";
    EXPECT_FALSE(
        declines(x + y + "    if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];\n"));
    // The copy in braces, as it is often written.
    EXPECT_FALSE(declines(
        x + y +
        "    if (x < cols && y < rows) {\n        out[x * rows + y] = in[y * cols + x];\n    }\n"));
    // A copy (no transposition), a scaled element.
    EXPECT_TRUE(
        declines(x + y + "    if (x < cols && y < rows) out[y * cols + x] = in[y * cols + x];\n"));
    EXPECT_TRUE(declines(
        x + y + "    if (x < cols && y < rows) out[x * rows + y] = 2 * in[y * cols + x];\n"));
    // The extent as blockDim (the usual form) or a TILE_DIM also does.
    EXPECT_FALSE(
        declines("    int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    int y = threadIdx.y + blockIdx.y * TILE_DIM;\n"
                 "    if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];\n"));
    // Anything else in the body.
    EXPECT_TRUE(declines(x + y +
                         "    if (x >= cols) return;\n"
                         "    if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];\n"));
}

}  // namespace
}  // namespace optiml::propose
