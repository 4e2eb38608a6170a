// The transformation tree against a synthetic kernel (tree_fakes.h): depth that only pays after
// a slower first step, budgets, widening, priors, rejection, streaming and determinism.
#include "driver/search/tree_search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "tree_fakes.h"

namespace optiml::search {
namespace {

using namespace fakes;

const std::vector<std::string> kSteps = {"tile", "unroll", "vector", "decoy"};

// The decoy is the judge's favourite and the first step of the real path its least.
std::map<std::string, double> decoy_priors() {
    return {{"decoy", 0.9}, {"tile", 0.2}, {"unroll", 0.4}, {"vector", 0.4}};
}

struct World {
    StepProposer steps{"steps", kSteps};
    WideProposer wide;
    StepProposer failing{"failing", {"broken"}};
    NameJudge judge{decoy_priors()};
    CountingProfiler profiler;
    TreeStart start = start_at_original();

    TreeResult run(Evaluator& evaluator, std::vector<Proposer*> proposers, Budget budget,
                   TreeOptions options = {}) {
        return run_tree_search(start, evaluator, proposers, judge, profiler.function(), budget,
                               options);
    }
};

std::vector<std::size_t> depths(const TreeResult& tree) {
    std::vector<std::size_t> depth(tree.nodes.size(), 0);
    for (const TreeNode& node : tree.nodes)
        if (node.parent) depth[node.id] = depth[*node.parent] + 1;
    return depth;
}

std::size_t children_of(const TreeResult& tree, std::size_t id) {
    std::size_t count = 0;
    for (const TreeNode& node : tree.nodes) count += node.parent == id;
    return count;
}

TEST(TreeSearch, FindsAThreeStepPathWhoseFirstStepAloneIsSlower) {
    World world;
    BatchEvaluator evaluator;
    const TreeResult tree = world.run(evaluator, {&world.steps}, {50, 1e9});
    ASSERT_LT(tree.trace.size(), 64u) << "the test wants fewer evaluations than there are chains";
    const TreeNode& best = tree.nodes[tree.best];
    EXPECT_EQ(best.candidate().transformations,
              (std::vector<std::string>{"tile", "unroll", "vector"}));
    ASSERT_EQ(tree.winning_path.size(), 4u);
    const TreeNode& first = tree.nodes[tree.winning_path[1]];
    EXPECT_EQ(first.proposal.transformation, "tile");
    EXPECT_GT(first.outcome.median_ms, tree.nodes[0].outcome.median_ms)
        << "the first step alone must be slower than the root";
    EXPECT_EQ(tree.nodes[tree.winning_path[2]].proposal.transformation, "unroll");
    EXPECT_EQ(tree.nodes[tree.winning_path[3]].proposal.transformation, "vector");
}

TEST(TreeSearch, FindsATwoStepPathWithinATighterBudget) {
    World world;
    world.judge = NameJudge{};  // no favourite
    BatchEvaluator evaluator;
    const TreeResult tree = world.run(evaluator, {&world.steps}, {12, 1e9});
    const Candidate& best = tree.nodes[tree.best].candidate();
    EXPECT_TRUE(before(best, "tile", "unroll")) << format_candidate(best);
    EXPECT_LT(tree.nodes[tree.best].outcome.median_ms, 7.0);
}

TEST(TreeSearch, TheWinningPathGoesFromTheRootToTheBestAlongEachEdgesProposal) {
    World world;
    BatchEvaluator evaluator;
    const TreeResult tree = world.run(evaluator, {&world.steps}, {30, 1e9});
    ASSERT_FALSE(tree.winning_path.empty());
    EXPECT_EQ(tree.winning_path.front(), 0u);
    EXPECT_EQ(tree.winning_path.back(), tree.best);
    EXPECT_FALSE(tree.nodes[0].parent);
    EXPECT_EQ(tree.nodes[0].candidate(), world.start.root);
    for (std::size_t i = 1; i < tree.winning_path.size(); ++i) {
        const TreeNode& node = tree.nodes[tree.winning_path[i]];
        ASSERT_EQ(node.parent, tree.winning_path[i - 1]);
        const Candidate& parent = tree.nodes[*node.parent].candidate();
        EXPECT_EQ(node.candidate(), with_step(parent, node.proposal.transformation));
        EXPECT_EQ(node.proposal.proposer, "steps");
    }
    for (const TreeNode& node : tree.nodes)
        if (!node.rejected) {
            EXPECT_GE(node.outcome.median_ms, tree.nodes[tree.best].outcome.median_ms);
        }
}

TEST(TreeSearch, NeverEvaluatesACandidateTwiceNorOneMeasuredBefore) {
    World world;
    world.start.measured = {with_step(original(), "tile"), with_step(original(), "decoy")};
    BatchEvaluator evaluator;
    const TreeResult tree =
        world.run(evaluator, {&world.steps, &world.steps, &world.failing}, {200, 1e9});
    const std::set<Candidate> unique(evaluator.seen.begin(), evaluator.seen.end());
    EXPECT_EQ(unique.size(), evaluator.seen.size()) << "a candidate was evaluated twice";
    EXPECT_EQ(unique.count(world.start.root), 0u);
    for (const Candidate& measured : world.start.measured) EXPECT_EQ(unique.count(measured), 0u);
    EXPECT_EQ(tree.trace.size(), evaluator.seen.size());
    EXPECT_FALSE(tree.stopped_by_time);
    EXPECT_LT(tree.trace.size(), 200u) << "the space is exhausted before the budget";
}

TEST(TreeSearch, HonoursTheEvaluationBudgetExactly) {
    for (const std::size_t in_flight : {1u, 3u, 4u}) {
        World world;
        BatchEvaluator evaluator;
        TreeOptions options;
        options.in_flight = in_flight;
        const TreeResult tree = world.run(evaluator, {&world.wide}, {17, 1e9}, options);
        EXPECT_EQ(tree.trace.size(), 17u);
        EXPECT_EQ(evaluator.seen.size(), 17u);
        for (std::size_t size : evaluator.batches) EXPECT_LE(size, in_flight);
        EXPECT_EQ(tree.nodes.size(), 18u);  // the root and each evaluation
    }
    World world;
    StreamingEvaluator streaming(8);
    const TreeResult tree = world.run(streaming, {&world.wide}, {17, 1e9});
    EXPECT_EQ(tree.trace.size(), 17u);
    EXPECT_EQ(streaming.submitted, 17u);
}

TEST(TreeSearch, HonoursTheSecondsBudget) {
    World world;
    BatchEvaluator evaluator;
    evaluator.delay = std::chrono::milliseconds(20);
    const TreeResult tree = world.run(evaluator, {&world.wide}, {1000, 0.15});
    EXPECT_TRUE(tree.stopped_by_time);
    EXPECT_GT(tree.trace.size(), 0u);
    EXPECT_LT(tree.trace.size(), 20u);

    World spent;
    BatchEvaluator none;
    const TreeResult nothing = spent.run(none, {&spent.wide}, {1000, 0.0});
    EXPECT_TRUE(nothing.stopped_by_time);
    EXPECT_TRUE(none.seen.empty());
    EXPECT_EQ(nothing.nodes.size(), 1u);
    EXPECT_EQ(nothing.best, 0u);
}

TEST(TreeSearch, AStreamingTimeBudgetDropsWhatHasNotStarted) {
    World world;
    StreamingEvaluator evaluator(4);
    evaluator.delay = std::chrono::milliseconds(30);
    const TreeResult tree = world.run(evaluator, {&world.wide}, {1000, 0.1});
    EXPECT_TRUE(tree.stopped_by_time);
    EXPECT_GT(evaluator.cancelled, 0u);
    EXPECT_EQ(tree.trace.size() + evaluator.cancelled, evaluator.submitted);
}

TEST(TreeSearch, ProgressiveWideningBoundsChildrenByVisits) {
    World world;
    BatchEvaluator evaluator;
    TreeOptions options;
    const TreeResult tree = world.run(evaluator, {&world.wide}, {60, 1e9}, options);
    for (const TreeNode& node : tree.nodes)
        EXPECT_LE(static_cast<double>(children_of(tree, node.id)),
                  std::ceil(options.widening_k * std::pow(node.visits, options.widening_alpha)))
            << "node " << node.id << " with " << node.visits << " visits";
    EXPECT_LT(children_of(tree, 0), 50u);
    const auto depth = depths(tree);
    EXPECT_GE(*std::max_element(depth.begin(), depth.end()), 2u) << "deep paths are tried";
}

TEST(TreeSearch, NarrowWideningGoesDeeper) {
    World narrow_world;
    World wide_world;
    BatchEvaluator a;
    BatchEvaluator b;
    TreeOptions narrow;
    narrow.widening_k = 1.0;
    narrow.widening_alpha = 0.3;
    TreeOptions wide;
    wide.widening_k = 8.0;
    const auto deepest = [](const TreeResult& tree) {
        const auto depth = depths(tree);
        return *std::max_element(depth.begin(), depth.end());
    };
    const TreeResult deep = narrow_world.run(a, {&narrow_world.wide}, {40, 1e9}, narrow);
    const TreeResult flat = wide_world.run(b, {&wide_world.wide}, {40, 1e9}, wide);
    EXPECT_GT(deepest(deep), deepest(flat));
    EXPECT_GT(children_of(flat, 0), children_of(deep, 0));
}

TEST(TreeSearch, HigherPriorsAreEvaluatedFirst) {
    World world;
    BatchEvaluator evaluator;
    TreeOptions options;
    options.in_flight = 1;
    const TreeResult tree = world.run(evaluator, {&world.wide}, {30, 1e9}, options);
    for (const TreeNode& parent : tree.nodes) {
        double previous = 2.0;
        for (const TreeNode& node : tree.nodes) {
            if (node.parent != parent.id) continue;
            EXPECT_LE(node.judge_score, previous) << "node " << node.id;
            previous = node.judge_score;
        }
    }
    EXPECT_DOUBLE_EQ(tree.nodes[1].judge_score, 0.9);  // w=9 or 19, 29, 39, 49
}

TEST(TreeSearch, ARejectedNodeIsNeverExpandedNorBest) {
    World world;
    NameJudge favours_broken({{"broken", 1.0}});
    BatchEvaluator evaluator;
    const TreeResult tree = run_tree_search(world.start, evaluator, {&world.failing, &world.steps},
                                            favours_broken, world.profiler.function(), {30, 1e9});
    std::size_t rejected = 0;
    for (const TreeNode& node : tree.nodes) {
        if (!node.rejected) continue;
        ++rejected;
        EXPECT_FALSE(node.outcome.ok);
        EXPECT_EQ(children_of(tree, node.id), 0u);
        EXPECT_NE(tree.best, node.id);
        EXPECT_DOUBLE_EQ(node.reward.total, RewardWeights{}.rejected);
        EXPECT_TRUE(node.metrics.empty()) << "a failed node is not profiled";
    }
    EXPECT_GT(rejected, 1u);
    EXPECT_EQ(tree.nodes[1].proposal.transformation, "broken") << "its prior was the highest";
    ASSERT_FALSE(world.failing.infos.empty());
    for (const Candidate& asked : world.failing.infos)
        EXPECT_FALSE(has(asked, "broken")) << "a rejected node was asked for proposals";
}

// "noop" changes nothing the GPU runs: its variant is reported as the image of the candidate
// without it, as CandidateEvaluator reports a CUBIN it has measured before.
class RepeatingEvaluator : public BatchEvaluator {
  public:
    std::vector<Outcome> evaluate(const std::vector<Candidate>& batch) override {
        std::vector<Outcome> outcomes = BatchEvaluator::evaluate(batch);
        for (std::size_t i = 0; i < batch.size(); ++i) {
            if (!has(batch[i], "noop")) continue;
            Candidate repeated = original();
            for (const std::string& step : batch[i].transformations)
                if (step != "noop") repeated = with_step(repeated, step);
            repeated.parameters = batch[i].parameters;
            outcomes[i].details.same_image_as = repeated;
            outcomes[i].beats_incumbent = false;
        }
        return outcomes;
    }
};

TEST(TreeSearch, AVariantRepeatingAMeasuredImageIsNeverExpandedNorProfiled) {
    World world;
    StepProposer steps{"steps", {"noop", "tile", "unroll", "vector"}};
    NameJudge favours_noop({{"noop", 1.0}, {"tile", 0.2}, {"unroll", 0.4}, {"vector", 0.4}});
    RepeatingEvaluator evaluator;
    const TreeResult tree = run_tree_search(world.start, evaluator, {&steps}, favours_noop,
                                            world.profiler.function(), {40, 1e9});
    std::size_t repeats = 0;
    for (const TreeNode& node : tree.nodes) {
        if (!node.outcome.details.same_image_as) continue;
        ++repeats;
        EXPECT_EQ(children_of(tree, node.id), 0u)
            << format_candidate(node.candidate()) << " repeats an image and was expanded";
        EXPECT_NE(tree.best, node.id);
    }
    EXPECT_GT(repeats, 0u) << "the judge's favourite edge was never taken";
    for (const Candidate& asked : steps.infos)
        EXPECT_FALSE(has(asked, "noop")) << "a repeat was asked for proposals";
    for (const Candidate& profiled : world.profiler.profiled)
        EXPECT_FALSE(has(profiled, "noop")) << "a repeat was profiled";
    EXPECT_EQ(tree.nodes[tree.best].candidate().transformations,
              (std::vector<std::string>{"tile", "unroll", "vector"}));
}

TEST(TreeSearch, ProfilesCorrectNodesUpToTheLimitAndBacksUpTheirReward) {
    World world;
    BatchEvaluator evaluator;
    TreeOptions options;
    options.max_profiles = 5;
    const TreeResult tree = world.run(evaluator, {&world.steps}, {20, 1e9}, options);
    // Five during the search; then the nodes of the winning path it had not profiled.
    std::size_t path_unprofiled = 0;
    for (const std::size_t id : tree.winning_path) {
        const Candidate& c = tree.nodes[id].candidate();
        path_unprofiled +=
            std::find(world.profiler.profiled.begin(), world.profiler.profiled.begin() + 5, c) ==
            world.profiler.profiled.begin() + 5;
    }
    ASSERT_EQ(world.profiler.profiled.size(), 5u + path_unprofiled);
    EXPECT_EQ(world.profiler.profiled.front(), world.start.root) << "the root is profiled first";
    std::size_t with_metrics = 0;
    for (const TreeNode& node : tree.nodes) {
        with_metrics += !node.metrics.empty();
        if (!node.metrics.empty()) {
            EXPECT_EQ(node.bottleneck, "memory");
        }
    }
    EXPECT_EQ(with_metrics, 5u + path_unprofiled);
    // A profiled child of a profiled parent moved its DRAM traffic the way the diagnosis wants.
    for (const TreeNode& node : tree.nodes) {
        if (!node.parent || node.metrics.empty() || tree.nodes[*node.parent].metrics.empty())
            continue;
        const bool faster = node.outcome.median_ms < tree.nodes[*node.parent].outcome.median_ms;
        EXPECT_EQ(node.reward.proxy > 0.0, faster) << "node " << node.id;
    }
    // The root's visits are every evaluation plus its own.
    EXPECT_DOUBLE_EQ(tree.nodes[0].visits, static_cast<double>(tree.trace.size() + 1));
}

// explain gives the winning path as the cause of the gain: every node on it has metrics and a
// checked prediction, however few profiles the search itself had.
TEST(TreeSearch, ProfilesEveryNodeOfTheWinningPathBeyondTheLimit) {
    World world;
    BatchEvaluator evaluator;
    TreeOptions options;
    options.max_profiles = 1;  // the root only, during the search
    const TreeResult tree = world.run(evaluator, {&world.steps}, {20, 1e9}, options);
    ASSERT_GE(tree.winning_path.size(), 2u) << "the fake world's steps get faster";
    for (std::size_t step = 0; step < tree.winning_path.size(); ++step) {
        const TreeNode& node = tree.nodes[tree.winning_path[step]];
        EXPECT_FALSE(node.metrics.empty()) << "step " << step;
        if (step > 0) {
            EXPECT_GT(node.consistency.held + node.consistency.contradicted, 0)
                << "step " << step << ": its prediction checked against its parent";
        }
    }
    // Off the path, nothing beyond the limit.
    std::size_t off_path_profiled = 0;
    for (const TreeNode& node : tree.nodes)
        off_path_profiled +=
            !node.metrics.empty() && std::find(tree.winning_path.begin(), tree.winning_path.end(),
                                               node.id) == tree.winning_path.end();
    EXPECT_EQ(off_path_profiled, 0u);
}

TEST(TreeSearch, RecordsTheJudgesConsistencyCheck) {
    World world;
    BatchEvaluator evaluator;
    const TreeResult tree = world.run(evaluator, {&world.steps}, {20, 1e9});
    EXPECT_EQ(world.judge.checks, 20);
    int held = 0;
    int contradicted = 0;
    for (const TreeNode& node : tree.nodes) {
        if (!node.parent) continue;
        const TreeNode& parent = tree.nodes[*node.parent];
        const bool faster = node.outcome.median_ms < parent.outcome.median_ms;
        // Every node here is profiled (20 + 1 < max_profiles), and DRAM follows the time.
        EXPECT_EQ(node.consistency.held, faster ? 1 : 0) << "node " << node.id;
        EXPECT_EQ(node.consistency.contradicted, faster ? 0 : 1) << "node " << node.id;
        held += node.consistency.held;
        contradicted += node.consistency.contradicted;
    }
    EXPECT_GT(held, 0);
    EXPECT_GT(contradicted, 0);
}

TEST(TreeSearch, StreamingAndBatchEvaluatorsBothFindThePath) {
    World world;
    StreamingEvaluator evaluator(3);
    TreeOptions options;
    options.in_flight = 2;
    const TreeResult tree =
        world.run(evaluator, {&world.steps, &world.failing}, {60, 1e9}, options);
    EXPECT_LE(evaluator.max_in_flight, 2u) << "min(depth, in_flight)";
    EXPECT_EQ(evaluator.max_in_flight, 2u);
    EXPECT_EQ(tree.nodes[tree.best].candidate().transformations,
              (std::vector<std::string>{"tile", "unroll", "vector"}));
    const std::set<Candidate> unique(evaluator.seen.begin(), evaluator.seen.end());
    EXPECT_EQ(unique.size(), evaluator.seen.size());
}

TEST(TreeSearch, TheEvaluatorsVerdictDecidesTheBest) {
    // An evaluator that only lets "decoy" beat the incumbent, whatever the medians say.
    class Referee : public BatchEvaluator {
      public:
        std::vector<Outcome> evaluate(const std::vector<Candidate>& batch) override {
            std::vector<Outcome> outcomes = BatchEvaluator::evaluate(batch);
            for (std::size_t i = 0; i < batch.size(); ++i)
                outcomes[i].beats_incumbent =
                    batch[i].transformations == std::vector<std::string>{"decoy"};
            return outcomes;
        }
    };
    World world;
    Referee evaluator;
    const TreeResult tree = world.run(evaluator, {&world.steps}, {30, 1e9});
    EXPECT_EQ(tree.nodes[tree.best].candidate().transformations, std::vector<std::string>{"decoy"});
}

TEST(TreeSearch, TheSameSeedGrowsTheSameTree) {
    const auto grow = [](std::uint64_t seed) {
        World world;
        BatchEvaluator evaluator;
        TreeOptions options;
        options.seed = seed;
        const TreeResult tree =
            world.run(evaluator, {&world.wide, &world.steps}, {40, 1e9}, options);
        std::vector<std::pair<std::optional<std::size_t>, Candidate>> shape;
        for (const TreeNode& node : tree.nodes) shape.emplace_back(node.parent, node.candidate());
        return shape;
    };
    EXPECT_EQ(grow(3), grow(3));
    EXPECT_EQ(grow(1), grow(1));
}

TEST(TreeSearch, StopsWhenNothingIsLeftToPropose) {
    World world;
    StepProposer one{"one", {"tile"}};
    StreamingEvaluator evaluator(4);
    const TreeResult tree = world.run(evaluator, {&one}, {100, 1e9});
    EXPECT_EQ(tree.trace.size(), 1u);
    EXPECT_FALSE(tree.stopped_by_time);
    EXPECT_EQ(tree.best, 0u) << "tile alone is slower than the root";
    EXPECT_EQ(tree.winning_path, std::vector<std::size_t>{0});
}

TEST(TreeSearch, ReportsProgressAfterEachResultOrBatch) {
    World world;
    StreamingEvaluator streaming(2);
    std::vector<std::size_t> sizes;
    run_tree_search(world.start, streaming, {&world.wide}, world.judge, world.profiler.function(),
                    {5, 1e9}, {},
                    [&](const TreeResult& tree) { sizes.push_back(tree.trace.size()); });
    EXPECT_EQ(sizes, (std::vector<std::size_t>{1, 2, 3, 4, 5}));
    BatchEvaluator batches;
    sizes.clear();
    TreeOptions options;
    options.in_flight = 2;
    run_tree_search(world.start, batches, {&world.steps}, world.judge, world.profiler.function(),
                    {5, 1e9}, options,
                    [&](const TreeResult& tree) { sizes.push_back(tree.trace.size()); });
    EXPECT_EQ(sizes, (std::vector<std::size_t>{2, 4, 5}));
}

// Rewrites that commute (restrict then unroll, unroll then restrict) reach one text by two
// chains: the variant is measured once, whichever chain got there first.
class CommutingProposer : public Proposer {
  public:
    std::string name() const override { return "commuting"; }
    std::vector<Proposal> propose(const NodeInfo& node) override {
        std::vector<Proposal> proposals;
        for (const std::string step : {"a", "b", "c"}) {
            if (has(*node.candidate, step)) continue;
            Proposal p;
            p.candidate = *node.candidate;
            p.candidate.transformations.push_back(step);
            std::vector<std::string> sorted = p.candidate.transformations;
            std::sort(sorted.begin(), sorted.end());
            p.candidate.source_id.clear();
            for (const std::string& s : sorted) p.candidate.source_id += s;
            p.kind = "rewrite";
            p.proposer = name();
            p.transformation = step;
            proposals.push_back(std::move(p));
        }
        return proposals;
    }
};

TEST(TreeSearch, TwoChainsReachingOneTextAreOneVariant) {
    World world;
    CommutingProposer commuting;
    BatchEvaluator evaluator;
    const TreeResult tree = world.run(evaluator, {&commuting}, {200, 1e9});
    std::set<std::pair<std::string, std::vector<std::string>>> texts;
    for (const Candidate& c : evaluator.seen)
        EXPECT_TRUE(texts.insert({c.source_id, c.options}).second) << c.source_id << " twice";
    // Subsets of {a, b, c} but the empty one (the root): 7 texts.
    EXPECT_EQ(evaluator.seen.size(), 7u);
    EXPECT_EQ(tree.nodes.size(), 8u);
}

// A judge that learns: the tree ranks what is left by its current scores, not those it gave
// when the proposals were gathered.
class LearningJudge : public NameJudge {
  public:
    using NameJudge::NameJudge;
    double score(const NodeInfo& parent, const Proposal& proposal) override {
        return demoted.contains(proposal.transformation) ? 0.0 : NameJudge::score(parent, proposal);
    }
    void learn(const NodeInfo&, const Proposal& proposal, const Outcome&) override {
        learnt.push_back(proposal.transformation);
        demoted.insert("unroll");  // after the first result, "unroll" is the least promising
    }
    std::set<std::string> demoted;
    std::vector<std::string> learnt;
};

TEST(TreeSearch, TheJudgeLearnsFromEveryResultAndTheRestIsRankedAnew) {
    World world;
    LearningJudge judge{{{"vector", 0.9}, {"unroll", 0.5}, {"tile", 0.4}, {"decoy", 0.3}}};
    BatchEvaluator evaluator;
    TreeOptions options;
    options.in_flight = 1;
    const TreeResult tree = run_tree_search(world.start, evaluator, {&world.steps}, judge,
                                            world.profiler.function(), {3, 1e9}, options);
    ASSERT_EQ(evaluator.seen.size(), 3u);
    EXPECT_EQ(judge.learnt.size(), 3u);
    // "unroll" was second when gathered; once demoted it waits behind the others.
    EXPECT_EQ(evaluator.seen[0].transformations, std::vector<std::string>{"vector"});
    EXPECT_EQ(evaluator.seen[1].transformations, std::vector<std::string>{"tile"});
    EXPECT_EQ(evaluator.seen[2].transformations, std::vector<std::string>{"decoy"});
}

TEST(TreeSearch, ANodeWithinMinGainOfTheBestDoesNotReplaceIt) {
    // "tiny" is 0.5% faster than the root, "real" 2%: only "real" is worth a rewritten kernel.
    class Scaled : public BatchEvaluator {
      public:
        std::vector<Outcome> evaluate(const std::vector<Candidate>& batch) override {
            std::vector<Outcome> outcomes = BatchEvaluator::evaluate(batch);
            for (std::size_t i = 0; i < batch.size(); ++i) {
                const double root = synthetic_ms(original());
                const double factor = has(batch[i], "real")   ? 0.98
                                      : has(batch[i], "tiny") ? 0.995
                                                              : 1.0;
                outcomes[i].median_ms = outcomes[i].min_ms = outcomes[i].max_ms = root * factor;
            }
            return outcomes;
        }
    };
    World world;
    StepProposer tiny{"tiny", {"tiny"}};
    Scaled evaluator;
    const TreeResult only_tiny = world.run(evaluator, {&tiny}, {5, 1e9});
    EXPECT_EQ(only_tiny.best, 0u);
    EXPECT_EQ(only_tiny.winning_path, std::vector<std::size_t>{0});
    StepProposer both{"both", {"tiny", "real"}};
    const TreeResult with_real = world.run(evaluator, {&both}, {5, 1e9});
    EXPECT_TRUE(has(with_real.nodes[with_real.best].candidate(), "real"));
}

}  // namespace
}  // namespace optiml::search
