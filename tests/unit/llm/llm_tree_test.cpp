// The LLM proposer and judge in the transformation tree, against a scripted endpoint: the llm
// edge is offered with its rationale and evidence, scored by the model, measured, and recorded
// with its EAR metrics; a wrong answer is rejected by the evaluator; a failing endpoint leaves
// the rule judge's scores.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "driver/llm/llm_judge.h"
#include "driver/llm/llm_proposer.h"
#include "driver/llm/llm_proposer_record.h"
#include "driver/propose/rule_judge.h"
#include "driver/search/tree_search.h"
#include "scripted_endpoint.h"

namespace optiml::llm {
namespace {

using testing::answer;
using testing::kGridStride;
using testing::kGridStrideChanges;
using testing::ScriptedEndpoint;

const char* kScore = "```json\n{\"score\": 0.9, \"reason\": \"answers stall-1\"}\n```";
const char* kVerdict = "{\"score\": 0.8, \"verdict\": \"DRAM bytes fell as the roofline said\"}";

// Texts by source id, evidence by candidate, and times that follow the text: the grid-stride
// kernel takes half the time; a text marked WRONG computes wrong results.
struct Pipeline {
    std::map<std::string, std::string> texts = {{"", testing::kScaleSource}};
    std::map<search::Candidate, analysis::EvidenceReport> evidence;

    LlmKernelSetup setup() {
        LlmKernelSetup s;
        s.context.kernel = "scale";
        s.context.text_of = [this](const search::Candidate& c) { return texts.at(c.source_id); };
        s.context.evidence_of =
            [this](const search::Candidate& c) -> const analysis::EvidenceReport* {
            const auto found = evidence.find(c);
            return found == evidence.end() ? nullptr : &found->second;
        };
        s.context.register_source = [this](const std::string& text) {
            const std::string id = "src" + std::to_string(texts.size());
            for (const auto& [existing, held] : texts)
                if (held == text) return existing;
            texts[id] = text;
            return id;
        };
        s.device = "NVIDIA H200";
        s.source_name = "scale.cu";
        return s;
    }
    double ms(const search::Candidate& c) const {
        return texts.at(c.source_id).find("gridDim") != std::string::npos ? 0.5 : 1.0;
    }
};

class TextEvaluator : public search::Evaluator {
  public:
    explicit TextEvaluator(Pipeline& pipeline) : pipeline_(pipeline) {}
    std::vector<search::Outcome> evaluate(const std::vector<search::Candidate>& batch) override {
        std::vector<search::Outcome> out;
        for (const auto& c : batch) {
            search::Outcome o;
            if (pipeline_.texts.at(c.source_id).find("WRONG") != std::string::npos) {
                o.status = "wrong_result";
                o.message = "C[17]: 3.5 vs 2";
            } else {
                o.ok = true;
                o.status = "ok";
                o.median_ms = o.min_ms = o.max_ms = pipeline_.ms(c);
                o.runs = 10;
            }
            out.push_back(o);
        }
        return out;
    }

  private:
    Pipeline& pipeline_;
};

KernelCompiler always_compiles() {
    return [](const std::string&, const std::map<std::string, std::int64_t>&) {
        return CompileCheck{true, "", "scale.cu"};
    };
}

struct Grown {
    Pipeline pipeline;
    propose::RuleJudge rules;
    search::TreeResult tree;
    std::vector<ProposalRecord> records;
    std::map<search::Candidate, JudgeNote> notes;
};

// A tree over the scale kernel with only the LLM proposer: every node profiled (DRAM bytes in
// proportion to its time, memory-bound) and given the scale evidence.
void grow(Grown& run, ChatEndpoint& endpoint, int evaluations) {
    Pipeline& pipeline = run.pipeline;
    LlmProposer proposer(endpoint, pipeline.setup(), always_compiles());
    LlmJudge judge(endpoint, pipeline.setup(), run.rules);
    search::TreeStart start;
    start.root = search::Candidate(search::Config{});
    start.root_outcome = {true, "ok", "", 1.0, 1.0, 1.0, 10, std::nullopt, {}};
    start.original_ms = 1.0;
    const search::NodeProfiler profiler =
        [&](const search::Candidate& c,
            const search::Outcome&) -> std::optional<search::NodeProfile> {
        pipeline.evidence[c] = testing::scale_evidence();
        return search::NodeProfile{{{"dram_bytes", pipeline.ms(c) * 8e6}}, "memory"};
    };
    TextEvaluator evaluator(pipeline);
    run.tree = search::run_tree_search(start, evaluator, {&proposer}, judge, profiler,
                                       {evaluations, 1e9, "auto"});
    run.records = proposer.records();
    run.notes = judge.notes();
}

const search::TreeNode* llm_node(const search::TreeResult& tree, bool rejected) {
    for (const auto& node : tree.nodes)
        if (node.proposal.kind == "llm" && node.rejected == rejected) return &node;
    return nullptr;
}

// Four evaluations with a model that answers the grid-stride kernel, scores 0.9 and approves.
void grow_with_the_good_answer(Grown& run) {
    ScriptedEndpoint endpoint(std::map<std::string, ScriptedEndpoint::Script>{
        {"propose@1", {answer(kGridStride, kGridStrideChanges)}},
        {"judge@1", {kScore}},
        {"verdict@1", {kVerdict}}});
    grow(run, endpoint, 4);
}

TEST(LlmInTheTree, OffersTheLlmEdgeWithItsRationaleAndEvidenceAndItWins) {
    Grown run;
    grow_with_the_good_answer(run);
    const search::TreeNode* node = llm_node(run.tree, false);
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(node->proposal.proposer, "llm");
    EXPECT_EQ(node->parent, 0u);
    EXPECT_NE(node->proposal.rationale.find("lines 4-5: grid-stride loop over the elements"),
              std::string::npos)
        << node->proposal.rationale;
    EXPECT_EQ(node->proposal.evidence, (std::vector<std::string>{"stall-1", "roofline"}));
    EXPECT_EQ(node->proposal.expected,
              (std::vector<search::Effect>{{"l1tex_sectors", -1}, {"dram_bytes", -1}}));
    EXPECT_NE(run.pipeline.texts.at(node->candidate().source_id).find("gridDim"),
              std::string::npos);
    EXPECT_NEAR(node->judge_score, 0.9 + LlmJudge::kTieBreak * 0.8, 0.05)
        << "the model's score, the rule judge's as tie-breaker";
    EXPECT_DOUBLE_EQ(node->reward.judge, search::RewardWeights{}.judge * node->judge_score);
    EXPECT_EQ(run.tree.best, node->id);
    EXPECT_EQ(run.tree.winning_path, (std::vector<std::size_t>{0, node->id}));

    const auto note = run.notes.find(node->candidate());
    ASSERT_NE(note, run.notes.end());
    EXPECT_EQ(note->second.verdict_score, 0.8);
    EXPECT_EQ(note->second.verdict, "DRAM bytes fell as the roofline said");
}

TEST(LlmInTheTree, RecordsEarMetricsPerNodeAndPerSearch) {
    Grown run;
    grow_with_the_good_answer(run);
    const search::TreeNode* node = llm_node(run.tree, false);
    ASSERT_NE(node, nullptr);
    const nlohmann::json record = llm_record(run.tree, run.records, run.notes);
    const nlohmann::json& ear = record.at("nodes").at(std::to_string(node->id)).at("ear");
    EXPECT_EQ(ear.at("evidence_coverage"), 1.0);
    EXPECT_EQ(ear.at("localization"), 1.0) << "lines 4-5 hold the stall at line 5";
    EXPECT_EQ(ear.at("directional"), 1.0) << "DRAM bytes fell, as the roofline implies";
    EXPECT_EQ(record.at("search").at("ear").at("evidence_coverage"), 1.0);
    const nlohmann::json& first = record.at("search").at("proposals").at(0);
    EXPECT_EQ(first.at("node"), node->id);
    EXPECT_EQ(first.at("attempts").at(0).at("stage"), "accepted");

    nlohmann::json tree = {{"nodes", nlohmann::json::array()}};
    for (std::size_t i = 0; i < run.tree.nodes.size(); ++i) tree["nodes"].push_back({{"id", i}});
    attach_record(tree, record);
    EXPECT_EQ(tree["nodes"][node->id]["ear"], ear);
    EXPECT_EQ(tree["llm"]["ear"], record["search"]["ear"]);
}

TEST(LlmInTheTree, AWrongAnswerIsRejectedByTheEvaluatorAndRecorded) {
    std::string wrong = kGridStride;
    wrong.insert(wrong.rfind('}'), "    // WRONG\n");
    ScriptedEndpoint endpoint(std::map<std::string, ScriptedEndpoint::Script>{
        {"propose@1", {answer(wrong, kGridStrideChanges)}}, {"", {kScore}}});
    Grown run;
    grow(run, endpoint, 3);
    const search::TreeNode* node = llm_node(run.tree, true);
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(node->outcome.status, "wrong_result");
    EXPECT_EQ(run.tree.best, 0u);
    const nlohmann::json record = llm_record(run.tree, run.records, run.notes);
    EXPECT_TRUE(record["nodes"][std::to_string(node->id)]["ear"]["directional"].is_null());
}

TEST(LlmInTheTree, RejectedAnswersAreRecordedWithTheirReasons) {
    std::string changed = kGridStride;
    changed.replace(changed.find("const float*"), 12, "float*");
    ScriptedEndpoint endpoint(std::map<std::string, ScriptedEndpoint::Script>{
        {"propose@1", {answer(changed, kGridStrideChanges)}}, {"", {kScore}}});
    Grown run;
    grow(run, endpoint, 2);
    EXPECT_EQ(llm_node(run.tree, false), nullptr);
    ASSERT_FALSE(run.records.empty());
    const ProposalRecord& record = run.records.front();
    EXPECT_FALSE(record.child);
    ASSERT_EQ(record.attempts.size(), 1u + 3u);
    EXPECT_EQ(record.attempts[0].stage, "guardrail");
    EXPECT_NE(record.attempts[0].reason.find("signature changed"), std::string::npos);
}

TEST(LlmJudgeFallback, AFailingEndpointLeavesTheRuleJudgesScoresAndIsNotAskedForever) {
    ScriptedEndpoint endpoint(ScriptedEndpoint::Script{testing::Fails{"connection refused"}});
    Pipeline pipeline;
    propose::RuleJudge rules;
    LlmJudge judge(endpoint, pipeline.setup(), rules);
    const search::Candidate root{search::Config{}};
    const search::Metrics metrics = {{"dram_bytes", 8e6}};
    const search::NodeInfo parent{&root, nullptr, &metrics, "memory"};
    for (int i = 0; i < 4; ++i) {
        search::Proposal p;
        p.kind = "rewrite";
        p.transformation = "unroll " + std::to_string(i);
        p.candidate = root;
        p.candidate.transformations = {p.transformation};
        p.expected = {{"dram_bytes", -1}};
        EXPECT_DOUBLE_EQ(judge.score(parent, p), rules.score(parent, p));
    }
    EXPECT_EQ(endpoint.requests.size(), static_cast<std::size_t>(LlmJudge::kMaxFailures));
}

TEST(LlmJudgeFallback, ParameterMovesAreTheRuleJudgesAndAScoreOutOfRangeIsNotTaken) {
    ScriptedEndpoint endpoint(ScriptedEndpoint::Script{std::string("{\"score\": 7}")});
    Pipeline pipeline;
    propose::RuleJudge rules;
    LlmJudge judge(endpoint, pipeline.setup(), rules);
    const search::Candidate root{search::Config{}};
    const search::NodeInfo parent{&root, nullptr, nullptr, "memory"};
    search::Proposal move;
    move.kind = "parameter";
    move.candidate = search::Candidate(search::Config{{"b", 2}});
    EXPECT_DOUBLE_EQ(judge.score(parent, move), rules.score(parent, move));
    EXPECT_TRUE(endpoint.requests.empty());
    search::Proposal rewrite;
    rewrite.kind = "rewrite";
    rewrite.candidate = root;
    rewrite.candidate.transformations = {"x"};
    EXPECT_DOUBLE_EQ(judge.score(parent, rewrite), rules.score(parent, rewrite));
    EXPECT_NE(judge.notes().at(rewrite.candidate).failure.find("between 0 and 1"),
              std::string::npos);
}

}  // namespace
}  // namespace optiml::llm
