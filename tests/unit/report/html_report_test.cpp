// The HTML report's parts, on real data: the matmul example's committed seed entry (tuned on an
// H200) and the evidence.json of an H200 matmul tuning (tests/data/h200).
#include "driver/report/html_report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "cache/store.h"
#include "driver/analysis/roofline.h"
#include "driver/report/detail/convergence_chart.h"
#include "driver/report/detail/html_text.h"
#include "driver/report/detail/roofline_chart.h"
#include "driver/report/detail/svg_chart.h"
#include "tests/unit/report/tree_manifest.h"

namespace optiml::report {
namespace {
namespace fs = std::filesystem;

const fs::path kSource = OPTIML_SOURCE_DIR;

nlohmann::json read_json(const fs::path& file) {
    std::ifstream in(file);
    return nlohmann::json::parse(in);
}

cache::Entry matmul_seed() {
    const cache::Store seed(kSource / "examples/matmul/optiml-seed", true);
    return *seed.inspect(seed.keys().at(0));
}

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

const ChartSeries& series(const Chart& chart, const std::string& css) {
    for (const auto& s : chart.series)
        if (s.css == css) return s;
    throw std::runtime_error("no series " + css);
}

TEST(HtmlText, EscapesMarkupAndAttributeQuotes) {
    EXPECT_EQ(escape_html("a<b && c>\"d\"'"), "a&lt;b &amp;&amp; c&gt;&quot;d&quot;&#39;");
}

TEST(SvgChart, DrawsOneGroupPerSeriesAndOnlyPointsALogAxisCanShow) {
    Chart chart;
    chart.id = "c";
    chart.log_x = chart.log_y = true;
    chart.series = {{"a", "s-a", {{1, 10, "one"}, {10, 100, "<two>"}, {0, 5, "zero"}}, true},
                    {"b", "s-b", {{100, 1000, ""}, {1000, 10000, "", false}}}};
    const std::string svg = render_svg(chart);
    EXPECT_EQ(count(svg, "<g class=\"series "), 2);
    // x = 0 cannot sit on a log axis; a point without a marker is a line vertex only.
    EXPECT_EQ(count(svg, "<circle"), 3);
    EXPECT_NE(svg.find("<title>&lt;two&gt;</title>"), std::string::npos);
    EXPECT_EQ(count(svg, "<polyline"), 1);
}

// The ceilings read back from a verdict are those it was judged against, on either side of the
// ridge point.
TEST(RooflineChart, CeilingsComeBackFromAVerdictOnBothSidesOfTheRidge) {
    const analysis::DeviceCeilings device{"gpu", 4.4e12, {{"fp32", 64e12}}};
    for (const double bytes : {1e6, 1e9}) {  // intensity 1000 and 1 FLOP/byte
        analysis::KernelCounters counters;
        counters.duration_s = 0.01;
        counters.dram_bytes = bytes;
        counters.flops["fp32"] = 1e9;
        const auto ceilings = ceilings_of(analysis::classify(counters, device));
        ASSERT_TRUE(ceilings);
        EXPECT_EQ(ceilings->precision, "fp32");
        EXPECT_NEAR(ceilings->flops_per_s / 64e12, 1.0, 1e-9);
        EXPECT_NEAR(ceilings->dram_bytes_per_s / 4.4e12, 1.0, 1e-9);
    }
}

TEST(RooflineChart, PlacesTheOriginalTheWinnerAndEveryProfiledVariant) {
    const nlohmann::json evidence =
        read_json(kSource / "tests/data/h200/matmul_tuning_evidence.json");
    std::string why;
    const auto chart = roofline_chart(evidence, why);
    ASSERT_TRUE(chart) << why;
    const auto& original = series(*chart, "original").points;
    ASSERT_EQ(original.size(), 1u);
    EXPECT_DOUBLE_EQ(original[0].x,
                     evidence["before"]["roofline"]["arithmetic_intensity"].get<double>());
    EXPECT_DOUBLE_EQ(original[0].y,
                     evidence["before"]["roofline"]["achieved_flops_per_s"].get<double>());
    EXPECT_EQ(series(*chart, "winner").points.size(), 1u);
    EXPECT_EQ(series(*chart, "variants").points.size(), evidence["selection_table"]["rows"].size());
    // Every variant lies under the roof: achieved FLOP/s at most the attainable at its intensity
    // (with the calibration's few percent of slack).
    const auto& roof = series(*chart, "ceiling").points;
    const double peak = roof[1].y, bandwidth = roof[1].y / roof[1].x;
    for (const auto& p : series(*chart, "variants").points)
        EXPECT_LE(p.y, 1.05 * std::min(peak, p.x * bandwidth)) << p.label;
}

TEST(RooflineChart, EvidenceWithoutARooflineSaysWhy) {
    std::string why;
    EXPECT_FALSE(roofline_chart(nlohmann::json::object(), why));
    EXPECT_NE(why.find("no roofline"), std::string::npos);
}

TEST(ConvergenceChart, BestSoFarImprovesMonotonicallyAndSplitsThePhases) {
    nlohmann::json manifest = {{"search", {{"strategy", "random + transformations"}}}};
    const auto row = [](double ms, double at, bool derived) {
        nlohmann::json r = {{"status", "ok"},
                            {"elapsed_s", at},
                            {"parameters", {{"b", 1}}},
                            {"time_ms", {{"median", ms}}}};
        if (derived) r["source_id"] = "ab12", r["transformations"] = {"unroll"};
        return r;
    };
    manifest["trace"] = {
        row(4, 1, false), row(5, 2, false),
        row(3, 3, false), {{"status", "mismatch"}, {"elapsed_s", 3.5}, {"parameters", {{"b", 2}}}},
        row(2, 4, true),  row(2.5, 5, true)};
    std::string why;
    const auto charts = convergence_charts(cache::read_entry_manifest(manifest, "test"), why);
    ASSERT_EQ(charts.size(), 2u) << why;
    const auto parameters = series(charts[0], "phase-parameters");
    EXPECT_EQ(parameters.name, "parameters (random)");
    ASSERT_EQ(parameters.points.size(), 2u);  // 4 ms, then 3 ms: 5 ms was no improvement
    EXPECT_EQ(parameters.points[1].x, 3);
    const auto tree = series(charts[0], "phase-transformations");
    ASSERT_EQ(tree.points.size(), 2u);
    EXPECT_EQ(tree.points[0].x, 5);  // the fifth evaluation, by count
    // The curve runs on, without a marker, to the last evaluation at the best found.
    EXPECT_EQ(tree.points[1].x, 6);
    EXPECT_EQ(tree.points[1].y, 2);
    EXPECT_FALSE(tree.points[1].marker);
    EXPECT_EQ(series(charts[1], "phase-transformations").points[0].x, 4);  // at 4 s
}

TEST(HtmlReport, TheSeedEntrysPageShowsWhatItRecordsAndNamesWhatItLacks) {
    const cache::Entry entry = matmul_seed();
    const std::string html =
        render_html_report({entry.key, cache::read_entry_manifest(entry), std::nullopt,
                            [](const std::string&) { return std::nullopt; }});
    EXPECT_NE(html.find("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"convergence-evaluations\""),
              std::string::npos);
    EXPECT_EQ(html.find("id=\"roofline\""), std::string::npos);
    EXPECT_NE(html.find("the entry has no evidence.json"), std::string::npos);
    EXPECT_NE(html.find("transformation tree: none recorded"), std::string::npos);
    // The parameters that changed are marked: as many as differ from the defaults.
    int changed = 0;
    for (const auto& [name, value] : entry.manifest["parameters"].items())
        changed += entry.manifest["default_parameters"][name] != value ? 1 : 0;
    EXPECT_EQ(count(html, "class=\"changed\""), changed);
    EXPECT_EQ(html.find("<script"), std::string::npos);
    // Nothing to fetch: the only URLs are the SVG namespace's, no external resources.
    EXPECT_EQ(count(html, "http://"), count(html, "http://www.w3.org/2000/svg"));
    EXPECT_EQ(count(html, "https://"), 0);
    EXPECT_EQ(count(html, "<link"), 0);
    EXPECT_EQ(count(html, " src="), 0);
}

TEST(HtmlReport, WithEvidenceItDrawsTheRooflineAndListsTheDominantStalls) {
    const cache::Entry entry = matmul_seed();
    const nlohmann::json evidence =
        read_json(kSource / "tests/data/h200/matmul_tuning_evidence.json");
    const std::string html =
        render_html_report({entry.key, cache::read_entry_manifest(entry), evidence,
                            [](const std::string&) { return std::nullopt; }});
    EXPECT_NE(html.find("id=\"roofline\""), std::string::npos);
    // The variants timed but not profiled are named as missing from the chart.
    EXPECT_NE(html.find("only the " + std::to_string(evidence["selection_table"]["rows"].size()) +
                        " profiled ones"),
              std::string::npos);
    const std::size_t stalls =
        evidence["before"]["stalls"]["items"].size() + evidence["after"]["stalls"]["items"].size();
    EXPECT_EQ(count(html, "<tr class=\"stall\">"), static_cast<int>(stalls));
    const std::string line =
        evidence["before"]["stalls"]["items"][0]["file"].get<std::string>() + ":" +
        std::to_string(evidence["before"]["stalls"]["items"][0]["line"].get<int>());
    EXPECT_NE(html.find("<code>" + line + "</code>"), std::string::npos) << line;
}

// The winning path is explain()'s account, its diff lines marked for colour, its text escaped.
TEST(HtmlReport, TheWinningPathShowsTheStepsDiffInColour) {
    const std::string html = render_html_report(
        {std::string(64, 'a'), cache::read_entry_manifest(manifest_with_tree(), "test"),
         std::nullopt, tree_sources});
    EXPECT_NE(html.find("<span class=\"diff-add\">     +#pragma unroll 4</span>"),
              std::string::npos)
        << html;
    EXPECT_NE(html.find("<span class=\"diff-hunk\">"), std::string::npos);
    EXPECT_NE(html.find("1. [rewrite] unroll line 2 by 4"), std::string::npos);
    EXPECT_NE(html.find("2 ms -&gt; 1.6 ms"), std::string::npos);  // escaped, not markup
    EXPECT_EQ(html.find("transformation tree: none recorded"), std::string::npos);
    EXPECT_NE(html.find("convergence: the trace holds no correct result"), std::string::npos);
}

// A tuning across sizes gets its section: the matrix as a table coloured from green (the
// problem's best) to red (twice its time or more), failed cells grey, and the dispatch.
TEST(HtmlReport, ATuningAcrossSizesShowsItsMatrixAsAHeatMap) {
    nlohmann::json m = manifest_with_tree();
    m["sizes"] = nlohmann::json::parse(R"({
      "problems": [{"n": 1024}, {"n": 1048576}],
      "variants": [{"parameters": {"block_size_x": 64}}, {"parameters": {"block_size_x": 512}}],
      "times_ms": [[0.5, 3.0], [0.75, 0.0]],
      "searches": [], "single_variant_loss": [0, 0]})");
    const std::string html = render_html_report(
        {std::string(64, 'a'), cache::read_entry_manifest(m, "test"), std::nullopt, tree_sources});
    EXPECT_NE(html.find("<section id=\"section-sizes\"><h2>Problem sizes</h2>"), std::string::npos);
    EXPECT_NE(html.find("<th>n=1024</th><th>n=1048576</th>"), std::string::npos) << html;
    EXPECT_NE(html.find("<td style=\"background:hsl(120,70%,80%)\">1.000*</td>"),
              std::string::npos);
    EXPECT_NE(html.find("<td style=\"background:hsl(60,70%,80%)\">1.500</td>"), std::string::npos);
    EXPECT_NE(html.find("<td style=\"background:#ddd\">failed</td>"), std::string::npos);
    EXPECT_EQ(render_html_report({std::string(64, 'a'),
                                  cache::read_entry_manifest(manifest_with_tree(), "test"),
                                  std::nullopt, tree_sources})
                  .find("section-sizes"),
              std::string::npos);
}

}  // namespace
}  // namespace optiml::report
