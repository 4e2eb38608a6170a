// The extremes design (initial_design.h) and the default strategy's use of it.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "driver/search/candidate_pool.h"
#include "driver/search/detail/initial_design.h"
#include "driver/search/strategy.h"
#include "tests/unit/search/synthetic_spaces.h"

namespace optiml::search {
namespace {

using testing::grid_space;

std::vector<Config> design_of(const Space& space, std::uint64_t seed) {
    CandidatePool pool(space);
    if (const auto original = pool.find(space.defaults)) pool.take(*original);  // as run_search
    std::mt19937_64 engine(seed);
    std::vector<Config> out;
    for (const std::size_t i : extremes_design(pool, engine)) out.push_back(pool.config(i));
    return out;
}

TEST(ExtremesDesign, TheLargestCornerThenTheDefaultWithEachParameterAtItsLargest) {
    const std::vector<Config> design = design_of(grid_space(3, 4), 1);
    ASSERT_EQ(design.size(), 4u);
    EXPECT_EQ(design[0], (Config{{"p0", 3}, {"p1", 3}, {"p2", 3}}));
    const std::set<Config> rest(design.begin() + 1, design.end());
    EXPECT_EQ(rest, (std::set<Config>{{{"p0", 3}, {"p1", 0}, {"p2", 0}},
                                      {{"p0", 0}, {"p1", 3}, {"p2", 0}},
                                      {{"p0", 0}, {"p1", 0}, {"p2", 3}}}));
}

// Constraints rule the corner out (p0 + p1 <= 4): the nearest valid configurations stand in. A
// parameter whose default is already its largest value adds nothing.
TEST(ExtremesDesign, TakesTheNearestValidPointAndSkipsAParameterAlreadyAtItsLargest) {
    Space space = grid_space(3, 4);
    space.is_valid = [](const Config& c) { return c.at("p0") + c.at("p1") <= 4; };
    space.defaults["p2"] = 3;
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        const std::vector<Config> design = design_of(space, seed);
        ASSERT_EQ(design.size(), 3u) << "the corner, then p0 and p1 at their largest";
        const std::set<Config> corners{{{"p0", 2}, {"p1", 2}, {"p2", 3}},
                                       {{"p0", 1}, {"p1", 3}, {"p2", 3}},
                                       {{"p0", 3}, {"p1", 1}, {"p2", 3}}};
        EXPECT_TRUE(corners.count(design[0])) << format_config(design[0]);
        const std::set<Config> unique(design.begin(), design.end());
        EXPECT_EQ(unique.size(), design.size());
        for (const Config& c : design) {
            EXPECT_TRUE(space.is_valid(c)) << format_config(c);
            EXPECT_NE(c, space.defaults) << "the baseline is measured already";
        }
        EXPECT_TRUE(unique.count({{"p0", 3}, {"p1", 0}, {"p2", 3}}));
        EXPECT_TRUE(unique.count({{"p0", 0}, {"p1", 3}, {"p2", 3}}));
    }
}

TEST(ExtremesDesign, IsDeterministicPerSeedAndItsOrderComesFromTheSeed) {
    const Space space = grid_space(5, 3);
    EXPECT_EQ(design_of(space, 7), design_of(space, 7));
    std::set<std::vector<Config>> orders;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) orders.insert(design_of(space, seed));
    EXPECT_GT(orders.size(), 1u) << "the one-parameter points come in an order drawn per seed";
}

// The default strategy measures the baseline, then random sampling's own first three draws for
// the seed, then the design, then what its models choose.
TEST(AutoStrategy, MeasuresRandomSamplingsFirstDrawsThenTheDesign) {
    const Space space = grid_space(4, 6);  // 1296 configurations: auto learns
    for (const std::uint64_t seed : {3u, 11u}) {
        testing::SyntheticEvaluator evaluator(testing::synthetic_bowl({2, 3, 1, 4}));
        run_search(space, evaluator, {40, 1e9, "auto"}, {}, seed, 1);
        testing::SyntheticEvaluator random(testing::synthetic_bowl({2, 3, 1, 4}));
        run_search(space, random, {4, 1e9, "random"}, {}, seed, 1);
        ASSERT_GE(evaluator.seen.size(), 1 + kRandomOpening + 5);
        ASSERT_EQ(random.seen.size(), 1 + kRandomOpening);
        EXPECT_EQ(evaluator.seen[0], space.defaults);
        for (std::size_t i = 1; i <= kRandomOpening; ++i)
            EXPECT_EQ(evaluator.seen[i], random.seen[i]) << "draw " << i << ", seed " << seed;
        const auto design = evaluator.seen.begin() + 1 + kRandomOpening;
        EXPECT_EQ(design[0], (Config{{"p0", 5}, {"p1", 5}, {"p2", 5}, {"p3", 5}}));
        const std::set<Config> one_at_a_time(design + 1, design + 5);
        EXPECT_EQ(one_at_a_time, (std::set<Config>{{{"p0", 5}, {"p1", 0}, {"p2", 0}, {"p3", 0}},
                                                   {{"p0", 0}, {"p1", 5}, {"p2", 0}, {"p3", 0}},
                                                   {{"p0", 0}, {"p1", 0}, {"p2", 5}, {"p3", 0}},
                                                   {{"p0", 0}, {"p1", 0}, {"p2", 0}, {"p3", 5}}}));
    }
}

}  // namespace
}  // namespace optiml::search
