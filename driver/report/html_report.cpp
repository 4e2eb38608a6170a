#include "driver/report/html_report.h"

#include <sstream>

#include "driver/analysis/evidence.h"
#include "driver/base/format.h"
#include "driver/report/detail/convergence_chart.h"
#include "driver/report/detail/html_text.h"
#include "driver/report/detail/roofline_chart.h"
#include "driver/report/detail/size_matrix.h"
#include "driver/report/detail/svg_chart.h"
#include "driver/search/candidate_json.h"

namespace optiml::report {
namespace {

constexpr const char* kStyle = R"(
body { font: 14px/1.45 "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 24px auto;
       max-width: 1000px; color: #1d2330; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 17px; margin-top: 28px;
     border-bottom: 1px solid #d6dae2; padding-bottom: 4px; }
dl.summary { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; }
dl.summary dt { color: #5b6475; } dl.summary dd { margin: 0; }
table { border-collapse: collapse; margin: 8px 0; } td, th { border: 1px solid #d6dae2;
        padding: 3px 8px; text-align: left; } th { background: #f2f4f8; }
td.changed { background: #fff3cd; font-weight: bold; }
pre { background: #f7f8fa; border: 1px solid #d6dae2; padding: 10px; overflow-x: auto;
      font: 12px/1.4 "DejaVu Sans Mono", monospace; }
.diff-add { color: #116329; background: #e6ffec; } .diff-del { color: #82071e; background: #ffebe9; }
.diff-hunk { color: #6639ba; } .missing { color: #8a5a00; }
.bar { display: inline-block; height: 10px; background: #d9534f; vertical-align: middle; }
svg.chart { background: #fff; border: 1px solid #d6dae2; margin: 6px 0; display: block; }
svg .grid { stroke: #eceef3; } svg .axis { stroke: #5b6475; }
svg text { font: 11px "DejaVu Sans", sans-serif; fill: #1d2330; }
svg .chart-title { font-size: 13px; font-weight: bold; }
svg .series polyline { stroke-width: 2; }
.ceiling polyline { stroke: #5b6475; stroke-dasharray: 6 3; } .ceiling rect { fill: #5b6475; }
.variants circle, .variants rect { fill: #9aa5b8; }
.original circle, .original rect { fill: #d9534f; }
.winner circle, .winner rect { fill: #2e8b57; } .winner circle { r: 6; }
.phase-parameters polyline { stroke: #3367d6; } .phase-parameters circle,
.phase-parameters rect { fill: #3367d6; }
.phase-transformations polyline { stroke: #e07b00; } .phase-transformations circle,
.phase-transformations rect { fill: #e07b00; }
)";

std::string ms(double value) {
    return base::format::seconds(value * 1e-3);
}

// explain()'s text with the diff's lines marked for colour.
std::string explain_html(const std::string& text) {
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line)) {
        const auto first = line.find_first_not_of(' ');
        const std::string_view body =
            first == std::string::npos ? std::string_view() : std::string_view(line).substr(first);
        const char* css = nullptr;
        if (body.starts_with("@@"))
            css = "diff-hunk";
        else if (body.starts_with("+++") || body.starts_with("---"))
            css = "diff-file";
        else if (body.starts_with("+"))
            css = "diff-add";
        else if (body.starts_with("-"))
            css = "diff-del";
        out += css ? "<span class=\"" + std::string(css) + "\">" + escape_html(line) + "</span>\n"
                   : escape_html(line) + "\n";
    }
    return out;
}

void summary(std::ostringstream& out, const ReportInput& in) {
    const cache::EntryManifest& m = in.manifest;
    const auto row = [&](const std::string& name, const std::string& value) {
        out << "<dt>" << escape_html(name) << "</dt><dd>" << escape_html(value) << "</dd>\n";
    };
    out << "<h1>" << escape_html(or_unknown(m.name)) << " on "
        << escape_html(or_unknown(m.device.name)) << " (" << escape_html(or_unknown(m.arch))
        << ")</h1>\n<dl class=\"summary\">\n";
    row("kernel", or_unknown(m.kernel));
    row("result", ms(m.original_time_ms.median) + " original → " + ms(m.time_ms.median) +
                      " winner (" + base::format::number(m.speedup) + "x)");
    row("winner", search::format_candidate(m.winner));
    row("search", or_unknown(m.search.strategy) + ", " + std::to_string(m.search.evaluations) +
                      " evaluations of " + std::to_string(m.search.space_size) + " in " +
                      base::format::seconds(m.search.wall_s));
    row("device", or_unknown(m.device.name) + ", " + std::to_string(m.device.sms) +
                      " SMs, driver " + std::to_string(m.device.driver));
    row("toolchain",
        "NVRTC " + or_unknown(m.nvrtc_version) + ", OptiML " + or_unknown(m.optiml_version));
    row("key", in.key);
    row("tuned", or_unknown(m.created));
    out << "</dl>\n";
}

void parameters_table(std::ostringstream& out, const cache::EntryManifest& m) {
    const search::Config& original = m.default_parameters;
    const search::Config& winner = m.winner.parameters;
    out << "<table id=\"parameters\"><tr><th>parameter</th><th>original</th><th>winner</th></tr>\n";
    for (const auto& [name, value] : winner) {
        const auto before = original.find(name);
        const bool changed = before == original.end() || before->second != value;
        out << "<tr><td>" << escape_html(name) << "</td><td>"
            << (before == original.end() ? "—" : std::to_string(before->second)) << "</td><td"
            << (changed ? " class=\"changed\"" : "") << ">" << value << "</td></tr>\n";
    }
    out << "</table>\n";
}

void stalls_table(std::ostringstream& out, const nlohmann::json& evidence) {
    out << "<table id=\"stalls\"><tr><th>variant</th><th>id</th><th>line</th><th>reason</th>"
           "<th>share of stalled samples</th><th>what it means</th></tr>\n";
    for (const char* field : {"before", "after"}) {
        const auto found = evidence.find(field);
        if (found == evidence.end() || found->is_null()) continue;
        const auto report =
            analysis::evidence_from_json(*found, std::string("evidence.json: ") + field);
        if (!report.stalls) {
            out << "<tr><td>" << escape_html(report.variant)
                << "</td><td colspan=\"5\" class=\"missing\">no PC sampling</td></tr>\n";
            continue;
        }
        for (const auto& stall : report.stalls->dominant)
            out << "<tr class=\"stall\"><td>" << escape_html(report.variant) << "</td><td>"
                << escape_html(stall.id) << "</td><td><code>" << escape_html(stall.file) << ":"
                << stall.line << "</code></td><td>" << escape_html(stall.reason)
                << "</td><td><span class=\"bar\" style=\"width:"
                << static_cast<int>(100 * stall.share) << "px\"></span> "
                << static_cast<int>(1000 * stall.share) / 10.0 << "%</td><td>"
                << escape_html(stall.description) << "</td></tr>\n";
        if (report.stalls->dominant.empty())
            out << "<tr><td>" << escape_html(report.variant)
                << "</td><td colspan=\"5\">no stall above the threshold</td></tr>\n";
    }
    out << "</table>\n";
}

}  // namespace

std::string report_file_name(const cache::EntryManifest& manifest, const std::string& key) {
    return (manifest.name.empty() ? "kernel" : manifest.name) + "-" +
           (manifest.arch.empty() ? "sm" : manifest.arch) + "-" + key.substr(0, 12) + ".html";
}

std::string render_html_report(const ReportInput& in) {
    std::vector<std::string> missing;
    std::ostringstream out;
    out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>OptiML: "
        << escape_html(or_unknown(in.manifest.name)) << " " << escape_html(in.manifest.arch)
        << "</title>\n<style>" << kStyle << "</style></head><body>\n";
    summary(out, in);

    out << "<section id=\"section-roofline\"><h2>Roofline</h2>\n";
    std::string why;
    const std::optional<Chart> roofline =
        in.evidence ? roofline_chart(*in.evidence, why) : std::nullopt;
    if (!in.evidence)
        why =
            "the entry has no evidence.json (tuned with OPTIML_PROFILE=0, without profiling "
            "rights, or by an OptiML before profiling): no counters, no ceilings";
    if (roofline) {
        out << render_svg(*roofline);
        std::size_t placed = 0, correct = 0;
        for (const auto& s : roofline->series)
            if (s.css == "variants") placed = s.points.size();
        if (in.manifest.trace.is_array())
            for (const auto& row : in.manifest.trace)
                correct += row.value("status", "") == "ok" ? 1 : 0;
        if (correct > placed)
            missing.push_back("roofline: the trace holds " + std::to_string(correct) +
                              " correct variants; only the " + std::to_string(placed) +
                              " profiled ones have FLOP and DRAM counts to place (the others "
                              "were timed, not profiled)");
    } else {
        out << "<p class=\"missing\">Not drawn: " << escape_html(why) << ".</p>\n";
        missing.push_back("roofline: " + why);
    }
    out << "</section>\n<section id=\"section-convergence\"><h2>Convergence</h2>\n";
    const std::vector<Chart> convergence = convergence_charts(in.manifest, why);
    for (const auto& chart : convergence) out << render_svg(chart);
    if (convergence.empty()) {
        out << "<p class=\"missing\">Not drawn: " << escape_html(why) << ".</p>\n";
        missing.push_back("convergence: " + why);
    }
    out << "</section>\n<section id=\"section-path\"><h2>Winning path</h2>\n";
    parameters_table(out, in.manifest);
    out << "<pre class=\"explain\">" << explain_html(explain(in.manifest, in.sources))
        << "</pre>\n";
    if (in.manifest.search.tree.is_null())
        missing.push_back(
            "transformation tree: none recorded, so the path is the parameter "
            "change above and there is no kernel diff");
    if (!in.manifest.sizes.is_null())
        out << "</section>\n<section id=\"section-sizes\"><h2>Problem sizes</h2>\n"
            << size_matrix_html(in.manifest.sizes);
    out << "</section>\n<section id=\"section-stalls\"><h2>Dominant stalls by line</h2>\n";
    if (in.evidence) {
        stalls_table(out, *in.evidence);
    } else {
        out << "<p class=\"missing\">Not recorded: the entry has no evidence.json.</p>\n";
        missing.push_back("stalls: no evidence.json, so no PC sampling");
    }
    out << "</section>\n<section id=\"section-missing\"><h2>Not in this entry</h2>\n<ul>\n";
    missing.push_back(
        "portfolio members: the trace does not say which member proposed each "
        "variant, so each search phase is one curve");
    for (const auto& item : missing) out << "<li>" << escape_html(item) << "</li>\n";
    out << "</ul></section>\n</body></html>\n";
    return out.str();
}

}  // namespace optiml::report
