// How the default strategy splits one budget between the parameter search and the tree.
#include <gtest/gtest.h>

#include "driver/tune/detail/transform_tuning.h"

namespace optiml::tune {
namespace {

TEST(TransformBudget, ParametersGetTheirShareOrAWholeSmallSpace) {
    EXPECT_EQ(parameter_evaluations(200, 1376), 120);  // 60%
    EXPECT_EQ(parameter_evaluations(200, 18), 120);    // the share is more than the space
    EXPECT_EQ(parameter_evaluations(4, 4), 4);         // a small space whole: faults included
    EXPECT_EQ(parameter_evaluations(60, 60), 36);      // not small: the share
    EXPECT_EQ(parameter_evaluations(40, 30), 30);      // small and fits: whole
    EXPECT_EQ(parameter_evaluations(10, 30), 10);      // never more than the budget
    EXPECT_EQ(parameter_evaluations(1, 1), 1);
}

}  // namespace
}  // namespace optiml::tune
