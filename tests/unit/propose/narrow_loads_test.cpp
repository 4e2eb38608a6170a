// vectorize_narrow_loads: a thread-per-item kernel reading bytes (or 2-byte words) runs four
// adjacent items a thread with one vector load. What it writes (every line in place), that NVRTC
// compiles it for sm_90 alone and under coarsen_items and privatize_atomics, and where it must
// not apply. The host test runs it (host/warp_rewrites_host_test.cpp); the tuner verifies every
// variant on the GPU.
#include <gtest/gtest.h>

#include <string>

#include "driver/propose/detail/rewrites.h"
#include "tests/unit/propose/rewritten_text.h"

namespace optiml::propose {
namespace {

using testing::compiles;
using testing::lines;

const std::string kByteHistogram =
    R"(__global__ void histogram(const unsigned char* data, unsigned int* bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[data[i]], 1u);
}
)";

TEST(VectorizeNarrowLoads, FourAdjacentBytesAThreadFromOneLoadWhereAllFourAreThere) {
    const auto text = vectorize_narrow_loads(kByteHistogram, "histogram");
    ASSERT_TRUE(text);
    EXPECT_EQ(lines(*text), lines(kByteHistogram));
    for (const char* piece :
         {"int optiml_quad = blockIdx.x * blockDim.x + threadIdx.x; if (optiml_quad <= ((n) - 1) "
          "/ 4) {",
          "if (optiml_quad * 4ll + 3 < (n) && reinterpret_cast<unsigned long long>(data) % 4 == "
          "0) { const uchar4 optiml_data_vector = *reinterpret_cast<const uchar4*>(data + "
          "optiml_quad * 4ll);",
          "static_cast<unsigned char>(optiml_data_vector.w)};",
          "int i = optiml_quad * 4 + optiml_k; [&]() {",
          // The body as written, its read taken from the vector, its bound settled.
          "    if (true) atomicAdd(&bins[optiml_data[optiml_k]], 1u);\n",
          // Elsewhere each item as the original, on the closing brace's line.
          "}(); } } else for (int optiml_k = 0; optiml_k < 4; ++optiml_k) { int i = optiml_quad * "
          "4 + optiml_k; [&]() { if ( i < n ) atomicAdd ( & bins [ data [ i ] ] , 1u ) ; }(); } } "
          "}"})
        EXPECT_NE(text->find(piece), std::string::npos) << piece << "\n" << *text;
    EXPECT_TRUE(compiles(*text, "histogram"));
    EXPECT_FALSE(vectorize_narrow_loads(*text, "histogram")) << "applied twice";
    // Still one thread per item (a quad): coarsened, then privatized, it compiles.
    const auto coarse = coarsen_items(*text, "histogram", 16);
    ASSERT_TRUE(coarse);
    const auto privatized = privatize_atomics(*coarse, "histogram", {{"bins", 256}});
    ASSERT_TRUE(privatized);
    EXPECT_TRUE(compiles(*privatized, "histogram"));
}

TEST(VectorizeNarrowLoads, ShortsComeFourAnEightByteLoadAndTheEarlyReturnFormWorks) {
    const std::string text = R"(__global__ void widen(const short* __restrict__ x, float* y,
                      long n) {
    const long i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    y[i] = 0.5f * x[i];
}
)";
    const auto rewritten = vectorize_narrow_loads(text, "widen");
    ASSERT_TRUE(rewritten);
    EXPECT_EQ(lines(*rewritten), lines(text));
    EXPECT_NE(rewritten->find("reinterpret_cast<unsigned long long>(x) % 8 == 0"),
              std::string::npos)
        << *rewritten;
    EXPECT_NE(rewritten->find("const ushort4 optiml_x_vector"), std::string::npos) << *rewritten;
    EXPECT_NE(rewritten->find("static_cast<short>(optiml_x_vector.x)"), std::string::npos);
    EXPECT_NE(rewritten->find("const long i = optiml_quad * 4 + optiml_k; [&]() {"),
              std::string::npos);
    EXPECT_NE(rewritten->find("if (false) return;"), std::string::npos) << *rewritten;
    EXPECT_NE(rewritten->find("if ( i >= n ) return ;"), std::string::npos);
    EXPECT_TRUE(compiles(*rewritten, "widen"));
}

TEST(VectorizeNarrowLoads, DeclinesWhereTheVectorCouldReadWhatTheOriginalDidNot) {
    const auto applies = [](const std::string& parameters, const std::string& body) {
        const std::string text = "__global__ void k(" + parameters + ") {\n" +
                                 "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n" + body +
                                 "}\n";
        return vectorize_narrow_loads(text, "k").has_value();
    };
    const std::string bytes = "const unsigned char* p, int* out, int n";
    EXPECT_TRUE(applies(bytes, "    if (i < n) out[i] = p[i] + 1;\n"));
    // Not narrow: float loads are vectorize_loads' (in loops).
    EXPECT_FALSE(applies("const float* p, float* out, int n", "    if (i < n) out[i] = p[i];\n"));
    // Read before anything branches (a threshold), or in a condition every item evaluates.
    EXPECT_TRUE(applies(bytes, "    if (i < n) out[i] = p[i] > 128 ? 255 : 0;\n"));
    EXPECT_TRUE(applies(bytes, "    if (i >= n) return;\n    if (p[i] > 128) out[i] = 1;\n"));
    // Read under a further condition, or a bound that is not the index's alone.
    EXPECT_FALSE(applies(bytes, "    if (i < n) { if (out[i] > 0) out[i] = p[i]; }\n"));
    EXPECT_FALSE(applies(bytes, "    if (i < n && out[i] > 0) out[i] = p[i];\n"));
    EXPECT_FALSE(applies(bytes, "    if (i < n) out[i] = out[i] > 0 ? p[i] : 0;\n"));
    EXPECT_FALSE(applies(bytes, "    if (i < n) { if (p[i] > 1) out[i] = p[i]; }\n"));
    // Another element, a write, an address taken, or no bound at all.
    EXPECT_FALSE(applies(bytes, "    if (i < n) out[i] = p[i + 1];\n"));
    EXPECT_FALSE(applies("unsigned char* p, int* out, int n", "    if (i < n) p[i] = 1;\n"));
    EXPECT_FALSE(applies(bytes, "    if (i < n) out[i] = *(&p[i]);\n"));
    EXPECT_FALSE(applies(bytes, "    out[i] = p[i];\n"));
}

}  // namespace
}  // namespace optiml::propose
