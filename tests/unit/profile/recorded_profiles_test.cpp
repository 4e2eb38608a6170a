// The analysis over real profiles recorded on an H200 by OptiML's own tools (tests/data/h200,
// whose README.md says how each file was made and how to make it again):
//  - `optiml profile --spec ... --json` keeps what the worker collected (raw counters, stall
//    samples by line, function attributes) next to the report it produced, so rebuilding the
//    report from the raw data must give the same roofline verdict and the same dominant stalls;
//  - a tuned cache entry's evidence.json keeps the counter table of the profiled variants, so
//    counter selection over it must pick counters that explain run time.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "driver/analysis/counter_selection.h"
#include "driver/profile/variant_evidence.h"

namespace optiml::profile {
namespace {

const std::filesystem::path kData = OPTIML_RECORDED_DATA;

nlohmann::json load(const std::string& name) {
    std::ifstream in(kData / name);
    EXPECT_TRUE(in) << "missing recorded file " << (kData / name);
    return nlohmann::json::parse(in);
}

analysis::EvidenceReport rebuild(const nlohmann::json& recorded) {
    const auto& profiling = recorded.at("profiling");
    VariantProfile variant{recorded.at("variant"), profiling.at("raw").get<ProfileResult>(),
                           profiling.at("measured_ms").get<double>()};
    analysis::DeviceCeilings ceilings;
    ceilings.dram_bytes_per_s = recorded.at("ceilings").at("dram_bytes_per_s");
    ceilings.flops_per_s = recorded.at("ceilings").at("flops_per_s");
    return evidence_report(recorded.at("kernel"), recorded.at("device"), variant, ceilings,
                           std::nullopt);
}

class RecordedProfile : public ::testing::TestWithParam<std::string> {};

TEST_P(RecordedProfile, RawDataGivesTheRecordedVerdictAndStalls) {
    const nlohmann::json recorded = load(GetParam() + ".json");
    const analysis::EvidenceReport report = rebuild(recorded);
    ASSERT_TRUE(report.roofline.has_value());
    const auto& roofline = recorded.at("roofline");
    EXPECT_EQ(analysis::to_string(report.roofline->bound),
              roofline.at("verdict").get<std::string>());
    EXPECT_NEAR(report.roofline->fraction_of_roof, roofline.at("fraction_of_roof").get<double>(),
                1e-9);
    EXPECT_EQ(report.roofline->limiter, roofline.at("limiter").get<std::string>());
    if (recorded.at("stalls").is_null()) {  // none were recorded: none may appear, and why
        EXPECT_FALSE(report.stalls.has_value());
        EXPECT_EQ(report.notes, recorded.at("notes").get<std::vector<std::string>>());
        return;
    }
    ASSERT_TRUE(report.stalls.has_value());
    const auto& items = recorded.at("stalls").at("items");
    ASSERT_EQ(report.stalls->dominant.size(), items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        EXPECT_EQ(report.stalls->dominant[i].id, items[i].at("id").get<std::string>());
        EXPECT_EQ(report.stalls->dominant[i].line, items[i].at("line").get<int>());
        EXPECT_EQ(report.stalls->dominant[i].reason, items[i].at("reason").get<std::string>());
        EXPECT_GT(report.stalls->dominant[i].share, analysis::kDefaultStallShare);
    }
}

INSTANTIATE_TEST_SUITE_P(H200, RecordedProfile,
                         ::testing::Values("saxpy_original", "saxpy_tuned", "matmul_original",
                                           "matmul_tuned"));

TEST(RecordedProfiles, TunedSaxpyIsMemoryBoundNearTheBandwidthRoof) {
    const analysis::EvidenceReport report = rebuild(load("saxpy_tuned.json"));
    ASSERT_TRUE(report.roofline.has_value());
    EXPECT_EQ(report.roofline->bound, analysis::Bound::Memory);
    EXPECT_EQ(report.roofline->roof, "dram");
    EXPECT_GE(report.roofline->fraction_of_roof, 0.80);
}

// Both saxpy variants wait on their loads where the loaded values are first used: the line of
// the fused multiply-add in examples/saxpy/kernels/saxpy.cu (found by its text, not its number).
TEST(RecordedProfiles, SaxpyStallsOnItsLoadsWhereTheyAreUsed) {
    std::ifstream source(std::filesystem::path(OPTIML_SOURCE_DIR) /
                         "examples/saxpy/kernels/saxpy.cu");
    std::string text;
    int line = 0, fma_line = 0;
    while (std::getline(source, text)) {
        ++line;
        if (text.find("out[lane] = a * in[lane] + out[lane]") != std::string::npos) fma_line = line;
    }
    ASSERT_GT(fma_line, 0);
    for (const char* name : {"saxpy_original.json", "saxpy_tuned.json"}) {
        const analysis::EvidenceReport report = rebuild(load(name));
        ASSERT_TRUE(report.stalls.has_value()) << name;
        ASSERT_FALSE(report.stalls->dominant.empty()) << name;
        const auto& top = report.stalls->dominant.front();
        EXPECT_EQ(top.file, "saxpy.cu") << name;
        EXPECT_EQ(top.line, fma_line) << name;
        EXPECT_EQ(top.reason, "long_scoreboard") << name;
        EXPECT_GT(top.share, 0.5) << name;
    }
}

// The original matmul's global-memory inner k-loop: from its `for` line to the `#endif` closing
// that path in examples/matmul/kernels/matmul.cu (found by text, not by number).
std::pair<int, int> matmul_inner_loop() {
    std::ifstream source(std::filesystem::path(OPTIML_SOURCE_DIR) /
                         "examples/matmul/kernels/matmul.cu");
    std::string text;
    int line = 0, first = 0, last = 0;
    while (std::getline(source, text) && last == 0) {
        ++line;
        if (text.find("for (int k = 0; k < K; ++k, b_row += N)") != std::string::npos) first = line;
        if (first > 0 && line > first && text.rfind("#endif", 0) == 0) last = line;
    }
    return {first, last};
}

// It waits on the loads of that loop, in `optiml profile`'s report and in the "before" report a
// tuning stored.
TEST(RecordedProfiles, OriginalMatmulStallsInItsInnerLoop) {
    const auto [first, last] = matmul_inner_loop();
    ASSERT_GT(first, 0);
    ASSERT_GT(last, first);
    const analysis::EvidenceReport report = rebuild(load("matmul_original.json"));
    ASSERT_TRUE(report.stalls.has_value());
    ASSERT_FALSE(report.stalls->dominant.empty());
    const auto& top = report.stalls->dominant.front();
    EXPECT_EQ(top.file, "matmul.cu");
    EXPECT_GE(top.line, first);
    EXPECT_LT(top.line, last);
    EXPECT_EQ(top.reason, "long_scoreboard");

    const nlohmann::json before = load("matmul_tuning_evidence.json").at("before");
    ASSERT_FALSE(before.at("stalls").is_null());
    const auto& stored = before.at("stalls").at("items").at(0);
    EXPECT_EQ(stored.at("file").get<std::string>(), "matmul.cu");
    EXPECT_GE(stored.at("line").get<int>(), first);
    EXPECT_LT(stored.at("line").get<int>(), last);
}

TEST(RecordedProfiles, AThresholdOfZeroKeepsEveryStallAndSharesAddUp) {
    const nlohmann::json recorded = load("matmul_tuned.json");
    const auto raw = recorded.at("profiling").at("raw").get<ProfileResult>();
    const analysis::StallSummary all = analysis::summarize_stalls(raw.stalls, 0.0);
    const analysis::StallSummary dominant = analysis::summarize_stalls(raw.stalls);
    EXPECT_GT(all.dominant.size(), dominant.dominant.size());
    double total = 0.0;
    for (const auto& stall : all.dominant) total += stall.share;
    EXPECT_NEAR(total, 1.0, 1e-9);
    EXPECT_EQ(all.stalled_samples, dominant.stalled_samples);
}

class RecordedSelection : public ::testing::TestWithParam<std::string> {};

TEST_P(RecordedSelection, SelectedCountersExplainRunTimeAcrossTheVariants) {
    const nlohmann::json evidence = load(GetParam() + "_tuning_evidence.json");
    const auto& recorded_table = evidence.at("selection_table");
    analysis::CounterTable table;
    table.counters = recorded_table.at("counters").get<std::vector<std::string>>();
    table.rows = recorded_table.at("rows").get<std::vector<std::vector<double>>>();
    table.runtime_s = recorded_table.at("runtime_s").get<std::vector<double>>();
    const analysis::CounterSelection selection = analysis::select_counters(table);
    EXPECT_EQ(selection.variants, table.rows.size());
    EXPECT_GE(selection.r_squared, 0.90);
    ASSERT_EQ(selection.counters.size(), 3u);
    const auto& recorded = evidence.at("after").at("counters");
    EXPECT_NEAR(selection.r_squared, recorded.at("r_squared").get<double>(), 1e-9);
    for (std::size_t i = 0; i < selection.counters.size(); ++i) {
        EXPECT_EQ(selection.counters[i].name,
                  recorded.at("items")[i].at("name").get<std::string>());
        EXPECT_FALSE(selection.counters[i].description.empty());
    }
}

INSTANTIATE_TEST_SUITE_P(H200, RecordedSelection, ::testing::Values("saxpy", "matmul"));

}  // namespace
}  // namespace optiml::profile
