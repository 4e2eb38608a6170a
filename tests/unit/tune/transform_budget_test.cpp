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

// At the tree's own 4 in flight, NVRTC's compiles set its pace on the GPU: it keeps as many in
// flight as the evaluator streams, as the parameter search does; a batch evaluator keeps its batch.
class DepthOnly : public search::Evaluator {
  public:
    explicit DepthOnly(std::size_t depth) : depth_(depth) {}
    std::vector<search::Outcome> evaluate(const std::vector<search::Candidate>& batch) override {
        return std::vector<search::Outcome>(batch.size());
    }
    std::size_t streaming_depth() const override { return depth_; }

  private:
    std::size_t depth_;
};

TEST(TransformBudget, TheTreeKeepsAsManyInFlightAsTheEvaluatorStreams) {
    const std::size_t tree_default = search::TreeOptions{}.in_flight;
    EXPECT_EQ(tree_options(DepthOnly(18)).in_flight, 18u);
    EXPECT_EQ(tree_options(DepthOnly(0)).in_flight, tree_default) << "batches keep the default";
    EXPECT_EQ(tree_options(DepthOnly(2)).in_flight, tree_default) << "never fewer than the default";
}

}  // namespace
}  // namespace optiml::tune
