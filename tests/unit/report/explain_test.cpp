// `optiml explain` on a manifest whose tree was written by the tree's own JSON mapping.
#include <gtest/gtest.h>

#include "driver/report/explain.h"
#include "tests/unit/report/tree_manifest.h"

namespace optiml::report {
namespace {

TEST(Explain, TellsEachStepsChangeReasonEvidenceMetricsAndGain) {
    const auto sources = tree_sources;
    const std::string text = explain(manifest_with_tree(), sources);
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

TEST(Explain, WithoutTheTextsOrTheTreeItSaysSo) {
    const auto none = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
    EXPECT_NE(explain(manifest_with_tree(), none).find("no diff"), std::string::npos);
    nlohmann::json plain = manifest_with_tree();
    plain["search"].erase("tree");
    EXPECT_NE(explain(plain, none).find("no transformation tree"), std::string::npos);
    nlohmann::json broken = manifest_with_tree();
    broken["search"]["tree"]["nodes"][1].erase("reward");
    EXPECT_THROW(explain(broken, none), std::exception);
}

}  // namespace
}  // namespace optiml::report
