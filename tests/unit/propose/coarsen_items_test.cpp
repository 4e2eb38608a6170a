// coarsen_items: each thread of a one-thread-per-item kernel runs several items a block apart.
// What it writes (every line in place), that NVRTC compiles it for sm_90, and where a thread's
// items would share state it must not. The tuner verifies every variant's results on the GPU.
#include <gtest/gtest.h>

#include <string>

#include "driver/propose/detail/rewrites.h"
#include "driver/source/rewrite_error.h"
#include "tests/unit/propose/rewritten_text.h"

namespace optiml::propose {
namespace {

using testing::compiles;
using testing::lines;

const std::string kOneItemHistogram =
    R"(__global__ void histogram(const unsigned char* data, unsigned int* bins, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomicAdd(&bins[data[i]], 1u);
}
)";

TEST(CoarsenItems, EachThreadRunsItsItemsABlockApartEachInItsOwnCall) {
    const auto text = coarsen_items(kOneItemHistogram, "histogram", 4);
    ASSERT_TRUE(text);
    EXPECT_EQ(lines(*text), lines(kOneItemHistogram));
    EXPECT_NE(text->find("for (int optiml_item = 0; optiml_item < 4; ++optiml_item) { const int "
                         "i = (blockIdx.x * 4u + optiml_item) * blockDim.x + threadIdx.x; [&]() {"),
              std::string::npos)
        << *text;
    // The early return ends one item, not the thread's others.
    EXPECT_NE(text->find("if (i >= n) return;"), std::string::npos);
    EXPECT_NE(text->find("}(); } }"), std::string::npos) << *text;
    EXPECT_TRUE(compiles(*text, "histogram"));
    EXPECT_FALSE(coarsen_items(*text, "histogram", 2)) << "applied twice";
    // Then privatized: one merge a block for four times the items.
    const auto privatized = privatize_atomics(*text, "histogram", {{"bins", 256}});
    ASSERT_TRUE(privatized);
    EXPECT_TRUE(compiles(*privatized, "histogram"));
    EXPECT_THROW(coarsen_items(kOneItemHistogram, "histogram", 1), source::RewriteError);
}

TEST(CoarsenItems, DeclinesWhereAThreadsItemsWouldShareState) {
    const auto declines = [](const std::string& body) {
        const std::string text =
            "__global__ void k(const float* x, float* out, int n) {\n" + body + "}\n";
        return !coarsen_items(text, "k", 2);
    };
    const std::string index = "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n";
    EXPECT_FALSE(declines(index + "    if (i < n) out[i] = 2.0f * x[i];\n"));
    // No bound: items past the original grid would run where no thread did.
    EXPECT_TRUE(declines(index + "    out[i] = 2.0f * x[i];\n"));
    // A local declared before the index, or a parameter, changed per item.
    EXPECT_TRUE(declines("    float s = 0;\n" + index +
                         "    if (i >= n) return;\n    s += x[i];\n"
                         "    out[i] = s;\n"));
    EXPECT_TRUE(declines(index + "    if (i >= n) return;\n    out += i;\n    *out = x[i];\n"));
    // The index walked further (a grid stride) or a barrier among the block's threads.
    EXPECT_TRUE(declines(index + "    if (i >= n) return;\n    out[i] = x[i];\n    i += 32;\n"));
    EXPECT_TRUE(declines(index + "    if (i >= n) return;\n    __syncthreads();\n"
                                 "    out[i] = x[i];\n"));
    EXPECT_TRUE(declines("    __shared__ float tile[256];\n" + index +
                         "    if (i >= n) return;\n    out[i] = x[i];\n"));
}

}  // namespace
}  // namespace optiml::propose
