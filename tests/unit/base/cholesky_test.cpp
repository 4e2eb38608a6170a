#include "driver/base/cholesky.h"

#include <gtest/gtest.h>

namespace optiml::base {
namespace {

const CholeskyFactor::Pivot kPlain = [](double sum, double) -> std::optional<double> {
    if (!(sum > 0.0)) return std::nullopt;
    return sum;
};

TEST(Cholesky, SolvesASymmetricPositiveDefiniteSystem) {
    // A = [[4, 2, 0], [2, 5, 1], [0, 1, 3]] (lower triangle given); A x = b for x = (1, -1, 2).
    const std::vector<double> a = {4, 0, 0, 2, 5, 0, 0, 1, 3};
    const auto factor = CholeskyFactor::factor(a, 3, kPlain);
    ASSERT_TRUE(factor);
    std::vector<double> b = {4 * 1 + 2 * -1 + 0 * 2, 2 * 1 + 5 * -1 + 1 * 2,
                             0 * 1 + 1 * -1 + 3 * 2};
    factor->solve(b);
    EXPECT_NEAR(b[0], 1.0, 1e-12);
    EXPECT_NEAR(b[1], -1.0, 1e-12);
    EXPECT_NEAR(b[2], 2.0, 1e-12);
}

TEST(Cholesky, TheLowerSolveAloneGivesTheWhitenedVector) {
    // L of [[4, 2], [2, 5]] is [[2, 0], [1, 2]]: L z = (2, 3) gives z = (1, 1).
    const auto factor = CholeskyFactor::factor({4, 0, 2, 5}, 2, kPlain);
    ASSERT_TRUE(factor);
    std::vector<double> z = {2, 3};
    factor->solve_lower(z);
    EXPECT_DOUBLE_EQ(z[0], 1.0);
    EXPECT_DOUBLE_EQ(z[1], 1.0);
}

TEST(Cholesky, ThePivotRuleDecidesASingularMatrix) {
    const std::vector<double> singular = {1, 0, 1, 1};  // [[1, 1], [1, 1]]
    EXPECT_FALSE(CholeskyFactor::factor(singular, 2, kPlain));
    const auto floored = CholeskyFactor::factor(
        singular, 2,
        [](double sum, double) -> std::optional<double> { return std::max(sum, 1e-12); });
    EXPECT_TRUE(floored);
}

}  // namespace
}  // namespace optiml::base
