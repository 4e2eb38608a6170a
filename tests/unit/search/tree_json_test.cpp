// The tree's JSON: written and read back field for field, and malformed documents named.
#include "driver/search/tree_json.h"

#include <gtest/gtest.h>

#include "driver/search/recording_file.h"
#include "tree_fakes.h"

namespace optiml::search {
namespace {

using namespace fakes;

TreeResult grown_tree() {
    StepProposer steps{"steps", {"tile", "unroll", "decoy"}};
    StepProposer failing{"failing", {"broken"}};
    NameJudge judge({{"broken", 1.0}});
    CountingProfiler profiler;
    BatchEvaluator evaluator;
    TreeOptions options;
    options.max_profiles = 4;  // some nodes without metrics
    return run_tree_search(start_at_original(), evaluator, {&steps, &failing}, judge,
                           profiler.function(), {12, 1e9}, options);
}

void expect_same(const TreeNode& a, const TreeNode& b) {
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.parent, b.parent);
    EXPECT_EQ(a.proposal.candidate, b.proposal.candidate);
    EXPECT_EQ(a.proposal.kind, b.proposal.kind);
    EXPECT_EQ(a.proposal.proposer, b.proposal.proposer);
    EXPECT_EQ(a.proposal.transformation, b.proposal.transformation);
    EXPECT_EQ(a.proposal.rationale, b.proposal.rationale);
    EXPECT_EQ(a.proposal.evidence, b.proposal.evidence);
    EXPECT_EQ(a.proposal.expected, b.proposal.expected);
    EXPECT_EQ(a.outcome.ok, b.outcome.ok);
    EXPECT_EQ(a.outcome.status, b.outcome.status);
    EXPECT_EQ(a.outcome.message, b.outcome.message);
    EXPECT_DOUBLE_EQ(a.outcome.median_ms, b.outcome.median_ms);
    EXPECT_DOUBLE_EQ(a.outcome.min_ms, b.outcome.min_ms);
    EXPECT_DOUBLE_EQ(a.outcome.max_ms, b.outcome.max_ms);
    EXPECT_EQ(a.outcome.runs, b.outcome.runs);
    EXPECT_EQ(a.metrics, b.metrics);
    EXPECT_EQ(a.bottleneck, b.bottleneck);
    EXPECT_DOUBLE_EQ(a.judge_score, b.judge_score);
    EXPECT_DOUBLE_EQ(a.reward.speedup, b.reward.speedup);
    EXPECT_DOUBLE_EQ(a.reward.proxy, b.reward.proxy);
    EXPECT_DOUBLE_EQ(a.reward.penalty, b.reward.penalty);
    EXPECT_DOUBLE_EQ(a.reward.judge, b.reward.judge);
    EXPECT_DOUBLE_EQ(a.reward.total, b.reward.total);
    EXPECT_EQ(a.consistency.held, b.consistency.held);
    EXPECT_EQ(a.consistency.contradicted, b.consistency.contradicted);
    EXPECT_EQ(a.consistency.unmeasured, b.consistency.unmeasured);
    EXPECT_EQ(a.rejected, b.rejected);
    EXPECT_DOUBLE_EQ(a.visits, b.visits);
}

TEST(TreeJson, RoundTripsEveryNodeThroughText) {
    const TreeResult tree = grown_tree();
    ASSERT_TRUE(std::any_of(tree.nodes.begin(), tree.nodes.end(),
                            [](const TreeNode& n) { return n.rejected; }));
    ASSERT_TRUE(std::any_of(tree.nodes.begin(), tree.nodes.end(),
                            [](const TreeNode& n) { return n.metrics.empty(); }));
    const TreeResult back = read_tree(nlohmann::json::parse(write_tree(tree).dump()));
    ASSERT_EQ(back.nodes.size(), tree.nodes.size());
    for (std::size_t i = 0; i < tree.nodes.size(); ++i) expect_same(back.nodes[i], tree.nodes[i]);
    EXPECT_EQ(back.best, tree.best);
    EXPECT_EQ(back.winning_path, tree.winning_path);
    EXPECT_DOUBLE_EQ(back.wall_s, tree.wall_s);
    EXPECT_EQ(back.stopped_by_time, tree.stopped_by_time);
    EXPECT_TRUE(back.trace.empty());
}

TEST(TreeJson, WritesTheFieldsExplainReads) {
    const TreeResult tree = grown_tree();
    const nlohmann::json json = write_tree(tree);
    const nlohmann::json& root = json.at("nodes").at(0);
    EXPECT_TRUE(root.at("parent").is_null());
    EXPECT_TRUE(root.at("on_winning_path").get<bool>());
    EXPECT_EQ(root.at("parameters"), (nlohmann::json{{"w", 0}}));
    const nlohmann::json& best = json.at("nodes").at(tree.best);
    EXPECT_TRUE(best.at("on_winning_path").get<bool>());
    EXPECT_TRUE(best.contains("source_id"));
    EXPECT_EQ(best.at("time_ms").at("median").get<double>(),
              tree.nodes[tree.best].outcome.median_ms);
    EXPECT_EQ(best.at("expected").at(0),
              (nlohmann::json{{"metric", "dram_bytes"}, {"direction", -1}}));
    for (const nlohmann::json& node : json.at("nodes")) {
        if (!node.at("rejected").get<bool>()) continue;
        EXPECT_FALSE(node.contains("time_ms"));
        EXPECT_EQ(node.at("message"), "planted");
        EXPECT_EQ(node.at("status"), "compile_error");
        EXPECT_FALSE(node.at("on_winning_path").get<bool>());
    }
    EXPECT_EQ(json.at("winning_path").get<std::vector<std::size_t>>(), tree.winning_path);
}

std::string error_reading(const std::function<void(nlohmann::json&)>& spoil) {
    nlohmann::json json = write_tree(grown_tree());
    spoil(json);
    try {
        read_tree(json);
    } catch (const RecordingError& e) {
        return e.what();
    }
    return "accepted";
}

TEST(TreeJson, AMalformedDocumentNamesTheField) {
    EXPECT_EQ(error_reading([](nlohmann::json& j) { j["nodes"][1]["reward"].erase("total"); }),
              "tree: nodes[1].reward.total: missing; expected a number");
    EXPECT_EQ(error_reading([](nlohmann::json& j) { j["nodes"][2]["parent"] = "zero"; }),
              "tree: nodes[2].parent: got \"zero\"; expected a node id");
    EXPECT_EQ(error_reading([](nlohmann::json& j) { j["best"] = 999; }),
              "tree: best: no node 999; expected an id below " +
                  std::to_string(grown_tree().nodes.size()));
    EXPECT_EQ(error_reading([](nlohmann::json& j) { j["nodes"][1]["evidence"] = {1}; }),
              "tree: nodes[1].evidence[0]: got 1; expected a string");
    EXPECT_EQ(error_reading([](nlohmann::json& j) { j.erase("nodes"); }),
              "tree: nodes: missing; expected an array of nodes");
    EXPECT_NE(error_reading([](nlohmann::json& j) {
                  j["nodes"][1]["parameters"] = "x";
              }).find("tree: nodes[1]: "),
              std::string::npos);
    EXPECT_EQ(error_reading([](nlohmann::json&) {}), "accepted");
}

}  // namespace
}  // namespace optiml::search
