#include "driver/search/detail/gaussian_process.h"

#include <gtest/gtest.h>

namespace optiml::search {
namespace {

TEST(GaussianProcess, InterpolatesItsPointsAndIsUnsureFarFromThem) {
    GaussianProcess model(0.3, 1e-6);
    model.fit({{0.0}, {0.5}, {1.0}}, {3.0, 1.0, 2.0});
    for (const auto& [x, y] : {std::pair{0.0, 3.0}, {0.5, 1.0}, {1.0, 2.0}}) {
        const auto p = model.predict({x});
        EXPECT_NEAR(p.mean, y, 1e-3);
        EXPECT_LT(p.stddev, 1e-2);
    }
    EXPECT_GT(model.predict({0.25}).stddev, model.predict({0.45}).stddev);
}

TEST(GaussianProcess, DuplicatePointsStillFit) {
    GaussianProcess model(0.3, 1e-4);
    model.fit({{0.2, 0.2}, {0.2, 0.2}, {0.8, 0.1}}, {1.0, 1.0, 2.0});
    EXPECT_NEAR(model.predict({0.2, 0.2}).mean, 1.0, 1e-2);
}

TEST(ExpectedImprovement, GrowsWithUncertaintyAndWithAPromisingMean) {
    EXPECT_DOUBLE_EQ(expected_improvement(2.0, 0.0, 1.0), 0.0);
    EXPECT_DOUBLE_EQ(expected_improvement(0.5, 0.0, 1.0), 0.5);
    EXPECT_GT(expected_improvement(2.0, 1.0, 1.0), expected_improvement(2.0, 0.1, 1.0));
    EXPECT_GT(expected_improvement(1.0, 0.5, 1.0), expected_improvement(1.5, 0.5, 1.0));
}

}  // namespace
}  // namespace optiml::search
