#include "driver/search/budget_fit.h"

#include <gtest/gtest.h>

#include <cmath>

#include "driver/search/search.h"
#include "tests/unit/search/synthetic_spaces.h"

namespace optiml::search {
namespace {

TEST(FittedEvaluations, TheWholeSmallSpaceThenTwentySquareRootsFrom320UpTo1000) {
    EXPECT_EQ(fitted_evaluations(0), 1);
    EXPECT_EQ(fitted_evaluations(60), 60);
    EXPECT_EQ(fitted_evaluations(256), 256);
    EXPECT_EQ(fitted_evaluations(300), 300);  // 320 would be more than the space
    EXPECT_EQ(fitted_evaluations(372), 372);  // 20 sqrt(372) = 386: more than the space
    EXPECT_EQ(fitted_evaluations(500), 447);  // 20 sqrt(500) = 447.2
    EXPECT_EQ(fitted_evaluations(1376), 742);
    EXPECT_EQ(fitted_evaluations(5068), 1000);
    EXPECT_EQ(fitted_evaluations(100000), 1000);
}

TEST(PatienceFor, TheMinimumOrAThirdOfALargeBudget) {
    EXPECT_EQ(patience_for(0), kMinPatience);
    EXPECT_EQ(patience_for(256), kMinPatience);
    EXPECT_EQ(patience_for(320), kMinPatience);  // 96 is less than the minimum
    EXPECT_EQ(patience_for(447), 134u);
    EXPECT_EQ(patience_for(1000), 300u);
}

TEST(Convergence, StopsAfterAsManyEvaluationsWithoutAGainAsTheGainTookAndAtLeastTheMinimum) {
    Convergence early;  // best found at evaluation 3: stops kMinPatience evaluations later
    early.observe(true, 10.0);
    early.observe(true, 9.0);
    early.observe(true, 5.0);
    for (std::size_t i = 0; i + 1 < kMinPatience; ++i) early.observe(true, 6.0);
    EXPECT_FALSE(early.converged());
    early.observe(true, 5.0);  // equal to the best: no gain
    EXPECT_TRUE(early.converged());
    EXPECT_EQ(early.last_gain_at(), 3u);
    EXPECT_EQ(early.text(), "no gain of 1% in the 100 evaluations since evaluation 3");

    Convergence late;  // a gain at evaluation 300 needs 300 more without one
    for (int i = 0; i < 299; ++i) late.observe(true, 10.0);
    late.observe(true, 8.0);
    for (int i = 0; i < 299; ++i) late.observe(true, 9.0);
    EXPECT_FALSE(late.converged());
    late.observe(true, 9.0);
    EXPECT_TRUE(late.converged());
}

// A smaller patience stops sooner, still no earlier than the gain took; a primed search (a later
// problem's, from earlier winners) waits its patience alone, however late its gain came.
TEST(Convergence, ASmallerPatienceStopsSoonerAndAPrimedSearchWaitsItAlone) {
    Convergence primed(30, true);
    primed.observe(true, 5.0);  // the prior is the best
    for (int i = 0; i < 29; ++i) primed.observe(true, 6.0);
    EXPECT_FALSE(primed.converged());
    primed.observe(true, 6.0);
    EXPECT_TRUE(primed.converged());
    EXPECT_EQ(primed.text(), "no gain of 1% in the 30 evaluations since evaluation 1");

    Convergence gaining(30);  // a gain at evaluation 50 needs 50 more without one
    for (int i = 0; i < 49; ++i) gaining.observe(true, 10.0);
    gaining.observe(true, 8.0);
    for (int i = 0; i < 49; ++i) gaining.observe(true, 9.0);
    EXPECT_FALSE(gaining.converged());
    gaining.observe(true, 9.0);
    EXPECT_TRUE(gaining.converged());

    Convergence refining(30, true);  // the same gain, primed: 30 more without one
    for (int i = 0; i < 49; ++i) refining.observe(true, 10.0);
    refining.observe(true, 8.0);
    for (int i = 0; i < 29; ++i) refining.observe(true, 9.0);
    EXPECT_FALSE(refining.converged());
    refining.observe(true, 9.0);
    EXPECT_TRUE(refining.converged());
    EXPECT_EQ(refining.text(), "no gain of 1% in the 30 evaluations since evaluation 50");
}

TEST(Convergence, GainsUnderOnePercentAndFailuresAreNotProgressAndNothingConvergesBeforeASuccess) {
    Convergence c;
    for (std::size_t i = 0; i < 3 * kMinPatience; ++i) c.observe(false, 0.0);
    EXPECT_FALSE(c.converged());  // nothing succeeded yet: keep looking
    c.observe(true, 100.0);
    const std::size_t first = c.evaluations();
    double ms = 100.0;
    for (std::size_t i = 0; i < first; ++i) c.observe(true, ms *= 0.995);  // 0.5% steps
    // 0.5% steps add up to a meaningful gain every other step, so it has not converged.
    EXPECT_FALSE(c.converged());
    EXPECT_GT(c.last_gain_at(), first);
}

// A space whose optimum is the default: nothing after the baseline gains.
Space flat_space() {
    return testing::grid_space(3, 10);
}

// Its cost: 1 at the default (every parameter 0), more with every step away from it.
std::optional<double> flat_cost(const Config& c) {
    return 1.0 + static_cast<double>(c.at("p0") + c.at("p1") + c.at("p2"));
}

TEST(SearchStop, AFittedBudgetStopsOnceConvergedAndSaysWhy) {
    testing::SyntheticEvaluator evaluator(flat_cost);
    Budget budget{1000, 1e9, "random"};
    budget.stop_when_converged = true;
    const Result result = run_search(flat_space(), evaluator, budget);
    // Batches of 8: it stops at the first batch's end that finds it converged.
    EXPECT_GE(result.trace.size(), 1 + kMinPatience);
    EXPECT_LT(result.trace.size(), 1 + kMinPatience + kDefaultBatchSize);
    EXPECT_EQ(result.stop_reason, "converged: no gain of 1% in the " +
                                      std::to_string(result.trace.size() - 1) +
                                      " evaluations since evaluation 1");
    EXPECT_FALSE(result.stopped_by_time);
}

// The budget's patience reaches the search: a later problem's (size tuning) stops sooner.
TEST(SearchStop, TheBudgetsPatienceDecidesWhenItHasConverged) {
    testing::SyntheticEvaluator evaluator(flat_cost);
    Budget budget{1000, 1e9, "random"};
    budget.stop_when_converged = true;
    budget.patience = 30;
    const Result result = run_search(flat_space(), evaluator, budget);
    EXPECT_GE(result.trace.size(), 1u + 30u);
    EXPECT_LT(result.trace.size(), 1u + 30u + kDefaultBatchSize);
}

// A search with priors (a later problem's) is primed: after a late gain it waits its patience
// alone, where a search without them waits as long as the gain took. Enumerated in order, the
// space gains 2% every ten configurations up to the 51st.
TEST(SearchStop, ASearchWithPriorsWaitsItsPatienceAloneAfterALateGain) {
    const auto gaining_until_51 = [](const Config& c) -> std::optional<double> {
        const std::int64_t index = 100 * c.at("p0") + 10 * c.at("p1") + c.at("p2");
        return index <= 50 ? 100.0 * std::pow(0.98, static_cast<double>(index / 10)) : 200.0;
    };
    Budget budget{1000, 1e9, "exhaustive"};
    budget.stop_when_converged = true;
    budget.patience = 30;
    testing::SyntheticEvaluator alone(gaining_until_51);
    const Result unprimed = run_search(flat_space(), alone, budget);
    budget.priors = {Config{{"p0", 9}, {"p1", 9}, {"p2", 9}}};
    testing::SyntheticEvaluator primed_by(gaining_until_51);
    const Result primed = run_search(flat_space(), primed_by, budget);
    const auto after_gain = [](const Result& r) {
        return r.trace.size() - static_cast<std::size_t>(
                                    std::stoul(r.stop_reason.substr(r.stop_reason.rfind(' ') + 1)));
    };
    EXPECT_GE(after_gain(unprimed), 50u) << unprimed.stop_reason;
    EXPECT_GE(after_gain(primed), 30u) << primed.stop_reason;
    EXPECT_LT(after_gain(primed), 30u + kDefaultBatchSize) << primed.stop_reason;
}

TEST(SearchStop, AGivenBudgetIsSpentWhateverTheProgressAndSaysSo) {
    testing::SyntheticEvaluator evaluator(flat_cost);
    const Result result = run_search(flat_space(), evaluator, {300, 1e9, "random"});
    EXPECT_EQ(result.trace.size(), 300u);
    EXPECT_EQ(result.stop_reason, "the budget of 300 evaluations was spent");
}

TEST(SearchStop, AMeasuredSpaceAndASpentTimeBudgetAreNamed) {
    testing::SyntheticEvaluator evaluator([](const Config& c) -> std::optional<double> {
        return 1.0 + static_cast<double>(c.at("p0"));
    });
    const Result whole = run_search(testing::grid_space(2, 3), evaluator, {100, 1e9, "random"});
    EXPECT_EQ(whole.trace.size(), 9u);
    EXPECT_EQ(whole.stop_reason, "every configuration was measured");
    const Result timed = run_search(flat_space(), evaluator, {500, 0.0, "random"});
    EXPECT_TRUE(timed.stopped_by_time);
    EXPECT_EQ(timed.stop_reason, "the time budget of 0 s was spent");
}

// Streaming as tune does: once converged nothing more is proposed, and what is in flight is
// dropped unmeasured (it was proposed before the search knew; timing it costs the GPU).
TEST(SearchStop, AStreamingSearchStopsOnceConvergedAndDropsWhatIsInFlight) {
    testing::StreamingSyntheticEvaluator evaluator(flat_cost, 8);
    Budget budget{1000, 1e9, "random"};
    budget.stop_when_converged = true;
    const Result result = run_search(flat_space(), evaluator, budget);
    EXPECT_EQ(result.trace.size(), 1 + kMinPatience);
    EXPECT_EQ(evaluator.seen.size(), result.trace.size());  // none measured beyond the trace
    EXPECT_EQ(evaluator.discarded, 7u);                     // 8 in flight, one just returned
    EXPECT_EQ(result.stop_reason, "converged: no gain of 1% in the " +
                                      std::to_string(kMinPatience) +
                                      " evaluations since evaluation 1");
}

// A caller that has what it measures (the search-efficiency bench, once past its last checkpoint
// and within 2%) stops the search: batches stop at the next batch, streams propose no more and
// drop what is in flight.
TEST(SearchStop, ACallerThatHasEnoughStopsTheSearchAndItSaysSo) {
    Budget budget{1000, 1e9, "random"};
    budget.enough = [](const Result& so_far) { return so_far.trace.size() >= 20; };
    testing::SyntheticEvaluator batches(flat_cost);
    const Result batched = run_search(flat_space(), batches, budget);
    EXPECT_GE(batched.trace.size(), 20u);
    EXPECT_LT(batched.trace.size(), 20u + kDefaultBatchSize);
    EXPECT_EQ(batched.stop_reason, "the caller had what it needed");

    testing::StreamingSyntheticEvaluator stream(flat_cost, 8);
    const Result streamed = run_search(flat_space(), stream, budget);
    EXPECT_EQ(streamed.trace.size(), 20u);
    EXPECT_EQ(streamed.stop_reason, "the caller had what it needed");
    EXPECT_FALSE(streamed.stopped_by_time);
}

}  // namespace
}  // namespace optiml::search
