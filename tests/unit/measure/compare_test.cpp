#include "driver/measure/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace optiml::measure {
namespace {
using spec::ElementType;

TEST(Compare, FloatsWithinToleranceMatch) {
    std::vector<float> expected{1.0f, 100.0f, 0.0f};
    std::vector<float> got{1.0f + 5e-6f, 100.0f + 5e-4f, 5e-7f};
    EXPECT_EQ(compare_buffers(ElementType::Float32, got.data(), expected.data(), 3, {1e-5, 1e-6})
                  .mismatches,
              0u);
}

TEST(Compare, FloatsOutsideToleranceAreCountedAndTheFirstIsReported) {
    std::vector<float> expected{1.0f, 2.0f, 3.0f, 4.0f};
    std::vector<float> got{1.0f, 2.1f, 3.0f, 5.0f};
    const Comparison c =
        compare_buffers(ElementType::Float32, got.data(), expected.data(), 4, {1e-5, 1e-6});
    EXPECT_EQ(c.mismatches, 2u);
    EXPECT_EQ(c.first_index, 1u);
    EXPECT_NEAR(c.first_got, 2.1, 1e-6);
    EXPECT_EQ(describe("y", c, 4, {1e-5, 1e-6}).substr(0, 25), "y[1]: got 2.1, expected 2");
}

TEST(Compare, ThePoisonPatternNeverPasses) {
    // Output buffers are filled with 0xFF bytes before each run: an unwritten float is NaN.
    float poison;
    std::memset(&poison, 0xFF, sizeof(poison));
    ASSERT_TRUE(std::isnan(poison));
    std::vector<float> expected{std::numeric_limits<float>::quiet_NaN()};
    EXPECT_EQ(
        compare_buffers(ElementType::Float32, &poison, expected.data(), 1, {1.0, 1.0}).mismatches,
        1u);
    EXPECT_EQ(compare_buffers(ElementType::Float32, &poison, &poison, 1, {1e9, 1e9}).mismatches,
              1u);
}

TEST(Compare, IntegersMustBeExact) {
    std::vector<std::int32_t> expected{1, 2, 3};
    std::vector<std::int32_t> got{1, 2, 4};
    EXPECT_EQ(
        compare_buffers(ElementType::Int32, got.data(), expected.data(), 3, {1.0, 1.0}).mismatches,
        1u);
    std::vector<std::uint64_t> big{1ull << 60};
    EXPECT_EQ(compare_buffers(ElementType::UInt64, big.data(), big.data(), 1, {}).mismatches, 0u);
}

TEST(Compare, DoublesUseTheirOwnWidth) {
    std::vector<double> expected{1.0, 2.0};
    std::vector<double> got{1.0, 2.0 + 1e-3};
    EXPECT_EQ(compare_buffers(ElementType::Float64, got.data(), expected.data(), 2, {1e-5, 1e-6})
                  .mismatches,
              1u);
}

}  // namespace
}  // namespace optiml::measure
