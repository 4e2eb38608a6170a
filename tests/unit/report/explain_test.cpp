// `optiml explain` on a manifest whose tree was written by the tree's own JSON mapping.
#include <gtest/gtest.h>

#include "driver/report/explain.h"
#include "tests/unit/report/tree_manifest.h"

namespace optiml::report {
namespace {

cache::EntryManifest typed(const nlohmann::json& manifest) {
    return cache::read_entry_manifest(manifest, "test manifest");
}

TEST(Explain, TellsEachStepsChangeReasonEvidenceMetricsAndGain) {
    const auto sources = tree_sources;
    const std::string text = explain(typed(manifest_with_tree()), sources);
    EXPECT_NE(text.find("1. [rewrite] unroll line 2 by 4"), std::string::npos) << text;
    EXPECT_NE(text.find("why: the loop holds dominant stall stall-1 [evidence: stall-1]"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("2 ms -> 1.6 ms (1.25x)"), std::string::npos) << text;
    EXPECT_NE(text.find("instructions_executed 1000 -> 800 (-20.0%, expected down: held)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("+#pragma unroll 4"), std::string::npos) << text;
}

// The issue's case: --maxrregcount=32 credited with "more warps fit" while the registers did not
// move. A rationale its own measurements contradict is shown as proposed, not as the cause.
TEST(Explain, ARationaleTheMeasurementsContradictIsNotGivenAsTheCause) {
    nlohmann::json m = manifest_with_tree();
    nlohmann::json& node = m["search"]["tree"]["nodes"][1];
    node["consistency"] = {{"held", 0}, {"contradicted", 1}, {"unmeasured", 0}};
    node["metrics"]["instructions_executed"] = 1200;
    const auto none = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
    const std::string text = explain(typed(m), none);
    EXPECT_EQ(text.find("why: the loop holds"), std::string::npos) << text;
    EXPECT_NE(text.find("proposed as (contradicted by the metrics below, so not the cause of the "
                        "gain): the loop holds dominant stall stall-1"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("expected down: contradicted"), std::string::npos) << text;
}

// The penalty is never positive and is subtracted as its size: "- penalty 0.03", not "- -0.03".
TEST(Explain, APenaltyIsShownByItsSize) {
    nlohmann::json m = manifest_with_tree();
    m["search"]["tree"]["nodes"][1]["reward"]["penalty"] = -0.03;
    const auto none = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
    const std::string text = explain(typed(m), none);
    EXPECT_NE(text.find("- penalty 0.03 +"), std::string::npos) << text;
}

TEST(Explain, WithoutTheTextsOrTheTreeItSaysSo) {
    const auto none = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
    EXPECT_NE(explain(typed(manifest_with_tree()), none).find("no diff"), std::string::npos);
    nlohmann::json plain = manifest_with_tree();
    plain["search"].erase("tree");
    EXPECT_NE(explain(typed(plain), none).find("no transformation tree"), std::string::npos);
    nlohmann::json broken = manifest_with_tree();
    broken["search"]["tree"]["nodes"][1].erase("reward");
    EXPECT_THROW(explain(typed(broken), none), std::exception);
}

TEST(Explain, ShowsTheLlmLayersEarMetricsJudgeAndRejections) {
    nlohmann::json m = manifest_with_tree();
    nlohmann::json& tree = m["search"]["tree"];
    tree["nodes"][1]["kind"] = "llm";
    tree["nodes"][1]["ear"] = {
        {"evidence_coverage", 1.0}, {"localization", 0.5}, {"directional", nullptr}};
    tree["nodes"][1]["judge"] = {{"score", 0.9},
                                 {"reason", "answers stall-1"},
                                 {"verdict_score", 0.8},
                                 {"verdict", "instructions fell"},
                                 {"failure", ""}};
    tree["llm"] = {
        {"ear", {{"evidence_coverage", 0.75}, {"localization", 0.5}, {"directional", 1.0}}},
        {"proposals",
         {{{"parent", "block=256"},
           {"node", 1},
           {"attempts",
            {{{"attempt", 1}, {"stage", "compile"}, {"reason", "it does not compile:\n..."}},
             {{"attempt", 2}, {"stage", "accepted"}, {"reason", ""}}}}}}}};
    const auto none = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
    const std::string text = explain(typed(m), none);
    EXPECT_NE(text.find("1. [llm] unroll line 2 by 4"), std::string::npos) << text;
    EXPECT_NE(text.find("EAR: evidence coverage 100%, localization 50%, directional "
                        "consistency n/a"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("llm judge: 0.9 before (answers stall-1); 0.8 after (instructions fell)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("llm: 1 proposals asked, 1 became nodes; EAR over the search: evidence "
                        "coverage 75%, localization 50%, directional consistency 100%"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("rejected at block=256, attempt 1 (compile): it does not compile:"),
              std::string::npos)
        << text;
}

// A tuning across problem sizes: the matrix as a heat map (fractions of each problem's best, the
// cells within 3% marked), the dispatch with the problems each variant serves, and what the
// launcher runs: by size, or the winner at every size with what it loses at its worst problem.
TEST(Explain, ShowsTheGeneralisationMatrixAndTheDispatchOfATuningAcrossSizes) {
    nlohmann::json m = manifest_with_tree();
    m["sizes"] = nlohmann::json::parse(R"({
      "problems": [{"n": 1024}, {"n": 65536}, {"n": 1048576}],
      "variants": [{"parameters": {"block_size_x": 64}}, {"parameters": {"block_size_x": 128}},
                   {"parameters": {"block_size_x": 512}}],
      "times_ms": [[0.5, 1.0, 3.0], [0.6, 0.975, 2.0], [0.9, 1.3, 0.0]],
      "searches": [],
      "dispatch": {"variants": [0, 1],
                   "ranges": [{"variant": 0, "first_problem": 0, "last_problem": 1, "below": 262144},
                              {"variant": 1, "first_problem": 2, "last_problem": 2, "below": null}],
                   "loss": [0, 0.0256, 0]},
      "single_variant_loss": [0, 0.0256, 0.5]})");
    const auto none = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
    const std::string text = explain(typed(m), none);
    EXPECT_NE(text.find("  sizes: tuned at 3 problems"), std::string::npos) << text;
    EXPECT_NE(text.find("    0 block_size_x=64  1.000*     1.026*     1.500\n"), std::string::npos)
        << text;
    EXPECT_NE(text.find("    2 block_size_x=512 1.800      1.333      failed\n"), std::string::npos)
        << text;
    EXPECT_NE(text.find("dispatch: variant 0 for n=1024 to n=65536 (below 2.62e+05); variant 1 "
                        "for n=1048576 and above"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("launcher: dispatches by size as above (where the entry holds each "
                        "variant's images); variant 0 alone would take 1.5x that problem's best "
                        "at n=1048576"),
              std::string::npos)
        << text;
    // A dispatch that keeps the winner at every size: the launcher runs it, and says what it loses.
    m["sizes"]["dispatch"]["ranges"] = nlohmann::json::parse(
        R"([{"variant": 0, "first_problem": 0, "last_problem": 2, "below": null}])");
    EXPECT_NE(explain(typed(m), none)
                  .find("launcher: variant 0 at every size; at n=1048576 it takes 1.5x that "
                        "problem's best"),
              std::string::npos);
    m["sizes"]["times_ms"] = "no";
    EXPECT_THROW(explain(typed(m), none), std::runtime_error);
}

}  // namespace
}  // namespace optiml::report
