// How the default strategy splits one budget between the parameter search and the tree.
#include <gtest/gtest.h>

#include <cstdlib>

#include "driver/search/budget_fit.h"
#include "driver/tune/budget_rules.h"
#include "driver/tune/detail/transform_tuning.h"

namespace optiml::tune {
namespace {

int given(int evaluations, std::size_t valid) {
    search::Budget budget;
    budget.evaluations = evaluations;
    return parameter_evaluations(budget, valid);
}

TEST(TransformBudget, ParametersGetTheirShareOrAWholeSmallSpace) {
    EXPECT_EQ(given(200, 1376), 120);  // 60%
    EXPECT_EQ(given(200, 18), 120);    // the share is more than the space
    EXPECT_EQ(given(4, 4), 4);         // a small space whole: faults included
    EXPECT_EQ(given(60, 60), 36);      // not small: the share
    EXPECT_EQ(given(40, 30), 30);      // small and fits: whole
    EXPECT_EQ(given(10, 30), 10);      // never more than the budget
    EXPECT_EQ(given(1, 1), 1);
}

// A budget fitted to a small space once measured exactly the space, so the tree after it got no
// evaluation at all: the fitted budget now carries the tree's own on top.
TEST(TransformBudget, AFittedBudgetMeasuresTheSpaceAndLeavesTheTreeItsOwnShare) {
    for (const std::size_t valid : {std::size_t{5}, std::size_t{300}, std::size_t{5000}}) {
        const search::Budget budget = search_budget(spec::Budget{}, valid);
        EXPECT_TRUE(budget.stop_when_converged);
        EXPECT_EQ(budget.evaluations, search::fitted_evaluations(valid) + kFittedTreeEvaluations);
        EXPECT_EQ(parameter_evaluations(budget, valid), search::fitted_evaluations(valid));
        EXPECT_EQ(budget.evaluations - parameter_evaluations(budget, valid),
                  kFittedTreeEvaluations);
        // It waits a share of the parameters' budget without a gain, not of the tree's.
        EXPECT_EQ(budget.patience, search::patience_for(search::fitted_evaluations(valid)));
    }
    EXPECT_EQ(search_budget(spec::Budget{}, 5000).patience, 300u);
}

TEST(TransformBudget, EvaluationsGivenAreSpentAsGivenAndNoTreeMeansNoTreeShare) {
    spec::Budget asked;
    asked.evaluations = 24;
    EXPECT_EQ(search_budget(asked, 5).evaluations, 24);
    EXPECT_FALSE(search_budget(asked, 5).stop_when_converged);
    EXPECT_EQ(search_budget(asked, 5).patience, search::kMinPatience);
    spec::Budget exhaustive;
    exhaustive.strategy = "exhaustive";
    EXPECT_EQ(search_budget(exhaustive, 5).evaluations, 5);
    setenv("OPTIML_TRANSFORM", "0", 1);
    EXPECT_EQ(search_budget(spec::Budget{}, 5).evaluations, 5);
    unsetenv("OPTIML_TRANSFORM");
}

}  // namespace
}  // namespace optiml::tune
