// The evidence report's JSON schema, round trip and Markdown. Inputs are constructed, not
// recorded: the numbers only need to flow through the analysis into the report.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/analysis/analysis_error.h"
#include "driver/analysis/evidence.h"

namespace optiml::analysis {
namespace {

using nlohmann::json;

CounterTable small_table() {
    CounterTable table;
    table.counters = {"dram__bytes_read.sum", "smsp__inst_executed.sum",
                      "launch__registers_per_thread"};
    for (int r = 0; r < 12; ++r) {
        const double bytes = 1.0e8 * (1.0 + r % 5);
        const double instructions = 1.0e6 * (3.0 + (r * 7) % 4);
        table.rows.push_back({bytes, instructions, 32.0});
        table.runtime_s.push_back(1.0e-5 + bytes * 2.5e-13 +
                                  instructions * 1.0e-13 * ((r % 2) ? 1.0 : 0.9));
    }
    return table;
}

EvidenceReport full_report() {
    KernelCounters metrics;
    metrics.duration_s = 2.5e-4;
    metrics.dram_bytes = 8.0e8;
    metrics.flops = {{"fp32", 1.3e8}};
    metrics.sm_throughput_pct = 14.5;
    metrics.dram_throughput_pct = 88.0;
    metrics.l1tex_throughput_pct = 31.0;
    metrics.achieved_occupancy_pct = 82.0;
    metrics.registers_per_thread = 16;
    metrics.static_shared_bytes = 0;
    DeviceCeilings ceilings;
    ceilings.dram_bytes_per_s = 3.6e12;
    ceilings.flops_per_s = {{"fp32", 6.0e13}};

    EvidenceReport report;
    report.kernel = "saxpy";
    report.variant = "original";
    report.device = "NVIDIA H200";
    report.metrics = metrics;
    report.roofline = classify(metrics, ceilings);
    report.stalls = summarize_stalls({{"kernels/saxpy.cu", 9, "long_scoreboard", 700},
                                      {"kernels/saxpy.cu", 10, "lg_throttle", 200},
                                      {"kernels/saxpy.cu", 9, "selected", 100}});
    report.counters = select_counters(small_table());
    report.notes = {"PC sampling ran at the default interval."};
    return report;
}

TEST(Evidence, JsonHasTheDocumentedSchemaAndIds) {
    const json document = to_json(full_report());
    EXPECT_EQ(document.at("schema"), 1);
    EXPECT_EQ(document.at("kernel"), "saxpy");
    EXPECT_EQ(document.at("variant"), "original");
    EXPECT_EQ(document.at("metrics").at("id"), "metrics");
    EXPECT_EQ(document.at("metrics").at("registers_per_thread"), 16);
    EXPECT_TRUE(document.at("metrics").at("spill_store_bytes").is_null());
    const json& roofline = document.at("roofline");
    EXPECT_EQ(roofline.at("id"), "roofline");
    EXPECT_EQ(roofline.at("verdict"), "memory-bound");
    for (const char* field :
         {"limiter", "precision", "arithmetic_intensity", "ridge_point", "roof",
          "attainable_flops_per_s", "achieved_flops_per_s", "achieved_bytes_per_s",
          "fraction_of_roof", "time_at_roof_s", "measured_s", "distance_s", "distance_fraction",
          "memory_utilization", "compute_utilization", "explanation"}) {
        EXPECT_TRUE(roofline.contains(field)) << field;
    }
    const json& stalls = document.at("stalls");
    EXPECT_EQ(stalls.at("stalled_samples"), 900);
    ASSERT_EQ(stalls.at("items").size(), 1u);
    EXPECT_EQ(stalls.at("items")[0].at("id"), "stall-1");
    EXPECT_EQ(stalls.at("items")[0].at("line"), 9);
    const json& counters = document.at("counters");
    ASSERT_GE(counters.at("items").size(), 1u);
    EXPECT_EQ(counters.at("items")[0].at("id"), "counter-1");
    EXPECT_EQ(counters.at("dropped")[0].at("name"), "launch__registers_per_thread");
    EXPECT_EQ(document.at("notes").size(), 1u);
}

TEST(Evidence, JsonRoundTripsThroughText) {
    const EvidenceReport report = full_report();
    const json written = to_json(report);
    const EvidenceReport read =
        evidence_from_json(json::parse(written.dump(2)), "saxpy.evidence.json");
    EXPECT_EQ(to_json(read), written);
    ASSERT_TRUE(read.roofline.has_value());
    EXPECT_EQ(read.roofline->bound, report.roofline->bound);
    EXPECT_EQ(read.roofline->fraction_of_roof, report.roofline->fraction_of_roof);
    EXPECT_EQ(read.stalls->dominant[0].description, report.stalls->dominant[0].description);
    EXPECT_EQ(read.counters->counters[0].coefficient, report.counters->counters[0].coefficient);
    EXPECT_EQ(read.metrics->sm_throughput_pct, report.metrics->sm_throughput_pct);
    EXPECT_FALSE(read.metrics->spill_load_bytes.has_value());
}

TEST(Evidence, MissingSectionsAreNullAndStayAbsent) {
    EvidenceReport report;
    report.kernel = "matmul";
    report.notes = {"No profiling rights (ERR_NVGPUCTRPERM): timing only."};
    const json document = to_json(report);
    EXPECT_TRUE(document.at("metrics").is_null());
    EXPECT_TRUE(document.at("roofline").is_null());
    EXPECT_TRUE(document.at("stalls").is_null());
    EXPECT_TRUE(document.at("counters").is_null());
    const EvidenceReport read = evidence_from_json(document);
    EXPECT_FALSE(read.roofline.has_value());
    EXPECT_FALSE(read.counters.has_value());
    EXPECT_TRUE(evidence_ids(read).empty());
    EXPECT_EQ(read.notes, report.notes);
}

TEST(Evidence, UndefinedIntensityIsNullAndRoundTrips) {
    KernelCounters metrics;
    metrics.duration_s = 1.0e-3;
    metrics.flops = {{"fp32", 1.0e9}};
    DeviceCeilings ceilings;
    ceilings.dram_bytes_per_s = 3.6e12;
    ceilings.flops_per_s = {{"fp32", 6.0e13}};
    EvidenceReport report;
    report.kernel = "registers_only";
    report.roofline = classify(metrics, ceilings);
    const json document = to_json(report);
    EXPECT_TRUE(document.at("roofline").at("arithmetic_intensity").is_null());
    EXPECT_FALSE(evidence_from_json(document).roofline->arithmetic_intensity.has_value());
}

TEST(Evidence, IdsInReportOrder) {
    const EvidenceReport report = full_report();
    const std::vector<std::string> ids = evidence_ids(report);
    ASSERT_GE(ids.size(), 4u);
    EXPECT_EQ(ids[0], "metrics");
    EXPECT_EQ(ids[1], "roofline");
    EXPECT_EQ(ids[2], "stall-1");
    EXPECT_EQ(ids[3], "counter-1");
    EXPECT_EQ(ids.size(), 3 + report.counters->counters.size());
}

TEST(Evidence, MarkdownShowsEveryIdAndTheVerdict) {
    const EvidenceReport report = full_report();
    const std::string text = to_markdown(report);
    EXPECT_EQ(text.rfind("# Evidence: saxpy (original) on NVIDIA H200", 0), 0u) << text;
    for (const std::string& id : evidence_ids(report)) {
        EXPECT_NE(text.find(id), std::string::npos) << id;
    }
    EXPECT_NE(text.find("memory-bound"), std::string::npos);
    EXPECT_NE(text.find("`kernels/saxpy.cu:9`"), std::string::npos);
    EXPECT_NE(text.find("long_scoreboard"), std::string::npos);
    EXPECT_NE(text.find("PC sampling ran at the default interval."), std::string::npos);
    EXPECT_NE(text.find(report.roofline->explanation), std::string::npos);
}

TEST(Evidence, ReadingRejectsBadDocumentsNamingTheField) {
    json newer = to_json(full_report());
    newer["schema"] = 2;
    try {
        evidence_from_json(newer, "out/saxpy.evidence.json");
        FAIL() << "expected AnalysisError";
    } catch (const AnalysisError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("out/saxpy.evidence.json: schema"), std::string::npos) << message;
    }

    json missing = to_json(full_report());
    missing["roofline"].erase("verdict");
    try {
        evidence_from_json(missing, "e.json");
        FAIL() << "expected AnalysisError";
    } catch (const AnalysisError& error) {
        EXPECT_NE(std::string(error.what()).find("e.json: roofline.verdict: is missing"),
                  std::string::npos)
            << error.what();
    }

    json mistyped = to_json(full_report());
    mistyped["stalls"]["items"][0]["line"] = "nine";
    try {
        evidence_from_json(mistyped, "e.json");
        FAIL() << "expected AnalysisError";
    } catch (const AnalysisError& error) {
        EXPECT_NE(std::string(error.what()).find("stalls.items[0].line"), std::string::npos)
            << error.what();
    }

    json unknown_verdict = to_json(full_report());
    unknown_verdict["roofline"]["verdict"] = "io-bound";
    EXPECT_THROW(evidence_from_json(unknown_verdict), AnalysisError);
    EXPECT_THROW(evidence_from_json(json::array()), AnalysisError);
}

}  // namespace
}  // namespace optiml::analysis
