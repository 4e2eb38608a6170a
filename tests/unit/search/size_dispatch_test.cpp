// choose_dispatch: from a generalisation matrix, the fewest variants that keep every problem
// within the tolerance of its best, the ranges they serve and the boundaries between them.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "driver/search/size_dispatch.h"

namespace optiml::search {
namespace {

const std::vector<double> kSizes = {1024, 4096, 16384, 65536, 262144, 1048576};

TEST(SizeDispatch, TwoRegimesTwoVariantsAndABoundaryHalfwayOnALogScale) {
    // A small-size variant, a large-size one, and one 10% off everywhere.
    const GeneralisationMatrix m{kSizes,
                                 {{1.0, 2.0, 4.0, 20.0, 90.0, 400.0},
                                  {1.5, 2.9, 4.5, 16.0, 64.0, 256.0},
                                  {1.1, 2.2, 4.4, 17.6, 70.4, 281.6}}};
    const SizeDispatch d = choose_dispatch(m);
    EXPECT_EQ(d.variants, (std::vector<std::size_t>{0, 1}));
    ASSERT_EQ(d.ranges.size(), 2u);
    EXPECT_EQ(d.ranges[0].variant, 0u);
    EXPECT_EQ(d.ranges[0].last, 2u);
    EXPECT_DOUBLE_EQ(d.ranges[0].below, std::sqrt(16384.0 * 65536.0));  // 32768
    EXPECT_EQ(d.ranges[1].variant, 1u);
    EXPECT_EQ(d.ranges[1].first, 3u);
    EXPECT_TRUE(std::isinf(d.ranges[1].below));
    for (const double loss : d.loss) EXPECT_DOUBLE_EQ(loss, 0.0);
    EXPECT_EQ(range_for(d, 100).variant, 0u);  // below every tuned size: the nearest
    EXPECT_EQ(range_for(d, 32767).variant, 0u);
    EXPECT_EQ(range_for(d, 32768).variant, 1u);  // the boundary belongs to the next range
    EXPECT_EQ(range_for(d, 1e12).variant, 1u);   // above every tuned size: the nearest
}

TEST(SizeDispatch, OneVariantWithinTheToleranceEverywhereIsAllItShips) {
    const GeneralisationMatrix m{
        kSizes, {{1.0, 2.0, 4.0, 16.5, 65.0, 263.0}, {1.02, 2.05, 4.1, 16.0, 64.0, 256.0}}};
    const SizeDispatch d = choose_dispatch(m);
    EXPECT_EQ(d.variants, (std::vector<std::size_t>{1}));
    ASSERT_EQ(d.ranges.size(), 1u);
    EXPECT_EQ(d.ranges[0].last, 5u);
    EXPECT_NEAR(d.loss[0], 0.02, 1e-12);
    // At 1%, the second variant loses more than that at the three small sizes.
    EXPECT_EQ(choose_dispatch(m, 0.01).variants, (std::vector<std::size_t>{0, 1}));
}

TEST(SizeDispatch, AVariantMayServeTwoRangesAndAFailureNeverFits) {
    // Variant 0 wins at the ends, 1 in the middle, 2 fails at the middle sizes.
    const GeneralisationMatrix m{kSizes,
                                 {{1.0, 2.0, 9.0, 30.0, 64.0, 256.0},
                                  {2.0, 4.0, 4.0, 16.0, 128.0, 512.0},
                                  {1.0, 2.0, 0.0, std::nan(""), 64.0, 256.0}}};
    const SizeDispatch d = choose_dispatch(m);
    // {1, 2} serves every problem as well: a tie goes to the earlier rows.
    EXPECT_EQ(d.variants, (std::vector<std::size_t>{0, 1}));
    ASSERT_EQ(d.ranges.size(), 3u);
    EXPECT_EQ(d.ranges[0].variant, 0u);
    EXPECT_EQ(d.ranges[1].variant, 1u);
    EXPECT_EQ(d.ranges[2].variant, 0u);
    EXPECT_EQ(d.ranges[1].first, 2u);
    EXPECT_EQ(d.ranges[1].last, 3u);
}

TEST(SizeDispatch, RefusesAMatrixItCannotChooseFrom) {
    EXPECT_THROW(choose_dispatch({{4096, 1024}, {{1.0, 1.0}}}), std::invalid_argument);
    EXPECT_THROW(choose_dispatch({{1024, 1024}, {{1.0, 1.0}}}), std::invalid_argument);
    EXPECT_THROW(choose_dispatch({{1024, 4096}, {{1.0}}}), std::invalid_argument);
    EXPECT_THROW(choose_dispatch({{1024, 4096}, {{1.0, 0.0}, {2.0, -1.0}}}), std::invalid_argument);
    EXPECT_THROW(choose_dispatch({{}, {}}), std::invalid_argument);
    GeneralisationMatrix wide{{1, 2}, {}};
    wide.times.assign(17, {1.0, 1.0});
    EXPECT_THROW(choose_dispatch(wide), std::invalid_argument);
}

}  // namespace
}  // namespace optiml::search
