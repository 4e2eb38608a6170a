#include "driver/search/search.h"
#include "tests/unit/search/synthetic_spaces.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

namespace optiml::search {
namespace {

Space two_parameter_space() {
    Space space;
    space.names = {"block", "items"};
    space.values = {{64, 128, 256}, {1, 2, 4}};
    space.defaults = {{"block", 128}, {"items", 1}};
    space.is_valid = [](const Config& c) { return c.at("block") * c.at("items") <= 512; };
    return space;
}

// Times as a function of the configuration; a chosen configuration fails verification.
class TableEvaluator : public Evaluator {
  public:
    std::vector<Outcome> evaluate(const std::vector<Candidate>& batch) override {
        std::vector<Outcome> outcomes;
        for (const auto& candidate : batch) {
            const Config& c = candidate.parameters;
            seen.push_back(c);
            Outcome o;
            if (c == failing) {
                o.status = "mismatch";
                o.message = "planted";
            } else {
                o.ok = true;
                o.status = "ok";
                o.median_ms = 10.0 / static_cast<double>(c.at("items")) +
                              static_cast<double>(c.at("block")) / 1000.0;
            }
            outcomes.push_back(o);
        }
        return outcomes;
    }
    std::vector<Config> seen;
    Config failing;
};

TEST(Space, EnumeratesOnlyValidConfigurations) {
    const auto configs = two_parameter_space().enumerate_valid();
    EXPECT_EQ(configs.size(), 8u);  // 9 combinations minus 256x4
    for (const auto& c : configs) EXPECT_LE(c.at("block") * c.at("items"), 512);
}

TEST(Search, ExhaustiveWhenTheSpaceFitsAndDefaultFirst) {
    TableEvaluator evaluator;
    const Result result = run_search(two_parameter_space(), evaluator, {100, 1e9});
    EXPECT_EQ(result.strategy, "exhaustive");
    EXPECT_EQ(result.trace.size(), 8u);
    EXPECT_EQ(evaluator.seen.front(), (Config{{"block", 128}, {"items", 1}}));
    ASSERT_TRUE(result.baseline && result.best);
    EXPECT_EQ(*result.baseline, 0u);
    EXPECT_EQ(result.trace[*result.best].candidate.parameters,
              (Config{{"block", 64}, {"items", 4}}));
    std::set<Config> unique(evaluator.seen.begin(), evaluator.seen.end());
    EXPECT_EQ(unique.size(), evaluator.seen.size()) << "a configuration was evaluated twice";
}

TEST(Search, AFailingConfigurationIsNeverTheWinner) {
    TableEvaluator evaluator;
    evaluator.failing = {{"block", 64}, {"items", 4}};
    const Result result = run_search(two_parameter_space(), evaluator, {100, 1e9});
    ASSERT_TRUE(result.best);
    EXPECT_EQ(result.trace[*result.best].candidate.parameters,
              (Config{{"block", 128}, {"items", 4}}));
}

TEST(Search, RandomSampleWithinBudgetIsSeededAndIncludesTheDefault) {
    TableEvaluator first;
    TableEvaluator second;
    const Result a = run_search(two_parameter_space(), first, {4, 1e9}, {}, 7);
    const Result b = run_search(two_parameter_space(), second, {4, 1e9}, {}, 7);
    EXPECT_EQ(a.strategy, "random");
    EXPECT_EQ(a.trace.size(), 4u);
    EXPECT_EQ(first.seen, second.seen);
    EXPECT_EQ(first.seen.front(), (Config{{"block", 128}, {"items", 1}}));
}

TEST(Search, StopsWhenTheTimeBudgetIsSpent) {
    TableEvaluator evaluator;
    const Result result = run_search(two_parameter_space(), evaluator, {100, 0.0});
    EXPECT_TRUE(result.stopped_by_time);
    EXPECT_EQ(result.trace.size(), 1u);  // only the baseline
}

TEST(Search, ReportsProgressAfterEveryBatch) {
    TableEvaluator evaluator;
    std::vector<std::size_t> sizes;
    run_search(
        two_parameter_space(), evaluator, {100, 1e9},
        [&](const Result& r) { sizes.push_back(r.trace.size()); }, 1, 3);
    EXPECT_EQ(sizes, (std::vector<std::size_t>{1, 4, 7, 8}));
}

// An evaluator that re-times the incumbent beside each challenger decides who wins: a faster
// median within the measured spread does not displace the incumbent.
class RefereeEvaluator : public Evaluator {
  public:
    std::vector<Outcome> evaluate(const std::vector<Candidate>& batch) override {
        std::vector<Outcome> outcomes;
        for (const auto& candidate : batch) {
            const Config& c = candidate.parameters;
            Outcome o{true, "ok", "", 1.0 - 0.001 * static_cast<double>(c.at("items")), 0, 0,
                      10,   {},   {}};
            o.beats_incumbent = c.at("items") == 2 && c.at("block") == 64;  // the only clear win
            if (outcomes.empty() && c == Config{{"block", 128}, {"items", 1}})
                o.beats_incumbent = true;
            outcomes.push_back(o);
        }
        return outcomes;
    }
};

TEST(Search, TheEvaluatorsVerdictOverridesARawMedianComparison) {
    RefereeEvaluator evaluator;
    const Result result = run_search(two_parameter_space(), evaluator, {100, 1e9}, {}, 1, 1);
    ASSERT_TRUE(result.best);
    EXPECT_EQ(result.trace[*result.best].candidate.parameters,
              (Config{{"block", 64}, {"items", 2}}))
        << "items=4 has the lowest median but never beat the incumbent beyond the spread";
}

// A streaming evaluator whose results come back last-submitted first (the order a streaming
// pipeline may finish in), counting what it holds in flight.
class StreamingTableEvaluator : public TableEvaluator {
  public:
    explicit StreamingTableEvaluator(std::size_t depth) : depth_(depth) {}
    std::size_t streaming_depth() const override { return depth_; }
    void submit(const Candidate& candidate) override {
        in_flight.push_back(candidate.parameters);
        submitted.push_back(candidate.parameters);
        max_in_flight = std::max(max_in_flight, in_flight.size());
        // The slow start: never more in flight than one past the results already back.
        if (in_flight.size() > collected + 1) ahead_of_results = true;
    }
    std::optional<std::pair<Candidate, Outcome>> collect() override {
        if (in_flight.empty()) return std::nullopt;
        std::this_thread::sleep_for(collect_delay);
        Config config = in_flight.back();
        in_flight.pop_back();
        ++collected;
        if (in_flight.empty() && submitted.size() == 1) first_alone = true;
        return std::pair{Candidate{config}, evaluate({Candidate{config}}).front()};
    }
    std::size_t cancel_pending() override {
        const std::size_t dropped = in_flight.size();
        cancelled_configs.insert(cancelled_configs.end(), in_flight.begin(), in_flight.end());
        in_flight.clear();
        return dropped;
    }
    std::vector<Config> in_flight;
    std::vector<Config> submitted;
    std::size_t max_in_flight = 0;
    std::vector<Config> cancelled_configs;
    std::chrono::milliseconds collect_delay{0};
    bool first_alone = false;
    std::size_t collected = 0;
    bool ahead_of_results = false;

  private:
    std::size_t depth_;
};

TEST(StreamingSearch, KeepsItsDepthInFlightAndStillMeasuresEachConfigurationOnce) {
    StreamingTableEvaluator evaluator(4);
    const Result result = run_search(two_parameter_space(), evaluator, {100, 1e9});
    EXPECT_EQ(result.trace.size(), 8u);
    EXPECT_TRUE(evaluator.first_alone) << "the baseline must be measured alone, first";
    EXPECT_EQ(result.trace.front().candidate.parameters, (Config{{"block", 128}, {"items", 1}}));
    EXPECT_EQ(*result.baseline, 0u);
    EXPECT_EQ(evaluator.max_in_flight, 4u);
    EXPECT_FALSE(evaluator.ahead_of_results)
        << "the depth is reached by a slow start: at most one more in flight than results back";
    std::set<Config> unique(evaluator.seen.begin(), evaluator.seen.end());
    EXPECT_EQ(unique.size(), 8u);
    EXPECT_EQ(evaluator.seen.size(), 8u) << "a configuration was evaluated twice";
    ASSERT_TRUE(result.best);
    EXPECT_EQ(result.trace[*result.best].candidate.parameters,
              (Config{{"block", 64}, {"items", 4}}));
}

TEST(StreamingSearch, NeverSubmitsMoreThanTheEvaluationBudget) {
    StreamingTableEvaluator evaluator(6);
    const Result result = run_search(two_parameter_space(), evaluator, {5, 1e9}, {}, 3);
    EXPECT_EQ(result.trace.size(), 5u);
    EXPECT_EQ(evaluator.submitted.size(), 5u);
    EXPECT_FALSE(result.stopped_by_time);
}

TEST(StreamingSearch, ASpentTimeBudgetDropsWhatHasNotStarted) {
    StreamingTableEvaluator evaluator(4);
    evaluator.collect_delay = std::chrono::milliseconds(100);
    const Result result = run_search(two_parameter_space(), evaluator, {100, 0.15});
    EXPECT_TRUE(result.stopped_by_time);
    EXPECT_LT(result.trace.size(), 8u);
    EXPECT_EQ(result.trace.size() + evaluator.cancelled_configs.size(), evaluator.submitted.size())
        << "everything submitted is either measured or dropped";
    for (const auto& item : result.trace)
        EXPECT_EQ(std::count(evaluator.cancelled_configs.begin(), evaluator.cancelled_configs.end(),
                             item.candidate.parameters),
                  0);
}

TEST(StreamingSearch, ReportsProgressAfterEveryResult) {
    StreamingTableEvaluator evaluator(3);
    std::vector<std::size_t> sizes;
    run_search(two_parameter_space(), evaluator, {100, 1e9},
               [&](const Result& r) { sizes.push_back(r.trace.size()); });
    EXPECT_EQ(sizes, (std::vector<std::size_t>{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(Search, FormatsConfigurationsByName) {
    EXPECT_EQ(format_config({{"b", 2}, {"a", 1}}), "a=1 b=2");
}

// An earlier problem's winners go first: measured right after the baseline, in order, once each
// (the default, a duplicate and a configuration outside the space are skipped), and never
// proposed again by the strategy; batched and streaming alike.
TEST(SearchPriors, PriorsAreMeasuredRightAfterTheBaselineOnceEach) {
    const Space space = testing::grid_space(2, 5);  // p0, p1 in 0..4; defaults p0=0 p1=0
    const auto cost = [](const Config& c) -> std::optional<double> {
        return 1.0 + static_cast<double>(c.at("p0") * 5 + c.at("p1"));
    };
    Budget budget{25, 1e9, "random"};
    budget.priors = {{{"p0", 3}, {"p1", 4}},
                     {{"p0", 0}, {"p1", 0}},
                     {{"p0", 9}, {"p1", 9}},
                     {{"p0", 1}, {"p1", 2}},
                     {{"p0", 3}, {"p1", 4}}};
    testing::SyntheticEvaluator batched(cost);
    testing::StreamingSyntheticEvaluator streaming(cost, 4);
    for (Evaluator* evaluator : std::vector<Evaluator*>{&batched, &streaming}) {
        const Result result = run_search(space, *evaluator, budget);
        ASSERT_EQ(result.trace.size(), 25u);  // the whole space, each configuration once
        EXPECT_EQ(result.trace[0].candidate.parameters, space.defaults);
        EXPECT_EQ(result.trace[1].candidate.parameters, (Config{{"p0", 3}, {"p1", 4}}));
        EXPECT_EQ(result.trace[2].candidate.parameters, (Config{{"p0", 1}, {"p1", 2}}));
        std::set<Config> seen;
        for (const TraceItem& item : result.trace)
            EXPECT_TRUE(seen.insert(item.candidate.parameters).second);
    }
}

// A search that does not measure the baseline (a later problem's) starts with its first prior,
// has no baseline, and leaves the default to the strategy like any other configuration; batched
// and streaming alike.
TEST(SearchPriors, WithoutTheBaselineTheFirstPriorGoesFirst) {
    const Space space = testing::grid_space(2, 5);
    const auto cost = [](const Config& c) -> std::optional<double> {
        return 1.0 + static_cast<double>(c.at("p0") * 5 + c.at("p1"));
    };
    Budget budget{25, 1e9, "random"};
    budget.measure_baseline = false;
    budget.priors = {{{"p0", 3}, {"p1", 4}}, {{"p0", 1}, {"p1", 2}}};
    testing::SyntheticEvaluator batched(cost);
    testing::StreamingSyntheticEvaluator streaming(cost, 4);
    for (Evaluator* evaluator : std::vector<Evaluator*>{&batched, &streaming}) {
        const Result result = run_search(space, *evaluator, budget);
        ASSERT_EQ(result.trace.size(), 25u);  // the default among them, once
        EXPECT_FALSE(result.baseline.has_value());
        EXPECT_EQ(result.trace[0].candidate.parameters, (Config{{"p0", 3}, {"p1", 4}}));
        EXPECT_EQ(result.trace[1].candidate.parameters, (Config{{"p0", 1}, {"p1", 2}}));
        std::set<Config> seen;
        for (const TraceItem& item : result.trace)
            EXPECT_TRUE(seen.insert(item.candidate.parameters).second);
        EXPECT_EQ(seen.count(space.defaults), 1u);
        ASSERT_TRUE(result.best.has_value());
        EXPECT_EQ(result.trace[*result.best].candidate.parameters, space.defaults);
    }
}

}  // namespace
}  // namespace optiml::search
