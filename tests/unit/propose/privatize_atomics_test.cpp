// privatize_atomics: where it applies, what it writes (every line in place), and that what it
// writes compiles with NVRTC for sm_90 (no GPU needed; the tuner verifies every variant's results).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "driver/propose/detail/rewrites.h"
#include "tests/unit/propose/rewritten_text.h"

namespace optiml::propose {
namespace {

const std::string kHistogram =
    R"(__global__ void histogram(const unsigned char* data, unsigned int* bins, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomicAdd(&bins[data[i]], 1u);
}
)";

const std::string kGridStride =
    R"(__global__ void weights(const int* keys, const float* w, float* sums, long n) {
    for (long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&sums[keys[i] % 64], w[i]);
}
)";

const std::map<std::string, long> kCounts = {{"bins", 256}, {"sums", 64}, {"data", 1 << 20}};

using testing::compiles;
using testing::lines;

TEST(PrivatizeAtomics, AHistogramAddsIntoABlockCopyMergedOnce) {
    const auto text = privatize_atomics(kHistogram, "histogram", kCounts);
    ASSERT_TRUE(text);
    EXPECT_EQ(lines(*text), lines(kHistogram));
    EXPECT_NE(text->find("__shared__ unsigned int optiml_private_bins[256u];"), std::string::npos)
        << *text;
    // The early return runs in a lambda: every thread reaches the merge's barrier.
    EXPECT_NE(text->find("[&]() {"), std::string::npos);
    EXPECT_NE(text->find("atomicAdd(&optiml_private_bins[optiml_index], 1u)"), std::string::npos);
    EXPECT_NE(text->find("else atomicAdd(&bins[optiml_index], 1u)"), std::string::npos);
    EXPECT_NE(text->find("atomicAdd(&bins[optiml_k], optiml_private_bins[optiml_k])"),
              std::string::npos);
    EXPECT_TRUE(compiles(*text, "histogram"));
    EXPECT_FALSE(privatize_atomics(*text, "histogram", kCounts)) << "applied twice";
}

TEST(PrivatizeAtomics, AFloatGridStrideLoopNeedsNoLambda) {
    const auto text = privatize_atomics(kGridStride, "weights", kCounts);
    ASSERT_TRUE(text);
    EXPECT_EQ(text->find("[&]"), std::string::npos) << *text;
    EXPECT_NE(text->find("__shared__ float optiml_private_sums[64u];"), std::string::npos);
    EXPECT_EQ(lines(*text), lines(kGridStride));
    EXPECT_TRUE(compiles(*text, "weights"));
}

// The element's address in parentheses and an int added to unsigned bins, as a textbook's
// grid-stride histogram writes it.
TEST(PrivatizeAtomics, AnAddressInParenthesesIsTheSameAtomic) {
    const std::string text = R"(__global__ void histo_kernel(unsigned char* buffer, long size,
                             unsigned int* histo) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int offset = blockDim.x * gridDim.x;
    while (i < size) {
        atomicAdd( &(histo[buffer[i]]), 1 );
        i += offset;
    }
}
)";
    const auto privatized = privatize_atomics(text, "histo_kernel", {{"histo", 256}});
    ASSERT_TRUE(privatized);
    EXPECT_NE(privatized->find("const unsigned long long optiml_index = (buffer[i]); if "
                               "(optiml_index < 256u) atomicAdd(&optiml_private_histo"
                               "[optiml_index], 1);"),
              std::string::npos)
        << *privatized;
    EXPECT_EQ(lines(*privatized), lines(text));
    EXPECT_TRUE(compiles(*privatized, "histo_kernel"));
    // Not an address in parentheses of something else: `&(histo)[k]` is not taken.
    EXPECT_FALSE(
        privatize_atomics("__global__ void h(unsigned* histo) { atomicAdd(&(histo)[0], "
                          "1u); }\n",
                          "h", {{"histo", 256}}));
}

TEST(PrivatizeAtomics, DeclinesWhereACopyWouldChangeTheResult) {
    auto with = [](std::string text, const std::string& from, const std::string& to) {
        text.replace(text.find(from), from.size(), to);
        return text;
    };
    // The array is also read or stored, or the old value is used.
    EXPECT_FALSE(
        privatize_atomics(with(kHistogram, "    atomicAdd", "    bins[0] = 0;\n    atomicAdd"),
                          "histogram", kCounts));
    EXPECT_FALSE(privatize_atomics(with(kHistogram, "    atomicAdd(&bins[data[i]], 1u);",
                                        "    if (atomicAdd(&bins[data[i]], 1u) == 0) return;"),
                                   "histogram", kCounts));
    // No count, or too large a one for shared memory.
    EXPECT_FALSE(privatize_atomics(kHistogram, "histogram", {}));
    EXPECT_FALSE(privatize_atomics(kHistogram, "histogram", {{"bins", 1 << 16}}));
    // An element type atomicAdd does not take in shared memory as the original does.
    EXPECT_FALSE(privatize_atomics(with(kHistogram, "unsigned int* bins", "unsigned short* bins"),
                                   "histogram", kCounts));
}

}  // namespace
}  // namespace optiml::propose
