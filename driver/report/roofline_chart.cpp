#include "driver/report/detail/roofline_chart.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "driver/analysis/evidence.h"
#include "driver/base/format.h"
#include "driver/report/detail/html_text.h"

namespace optiml::report {
namespace {

// The SASS counters of one precision's FLOPs (docs/evidence.md: an FMA counts 2).
const std::map<std::string, char> kPrecisionLetter = {{"fp32", 'f'}, {"fp64", 'd'}, {"fp16", 'h'}};

double counter(const nlohmann::json& names, const nlohmann::json& row, const std::string& name) {
    for (std::size_t i = 0; i < names.size() && i < row.size(); ++i)
        if (names[i] == name && row[i].is_number()) return row[i].get<double>();
    return 0.0;
}

std::string point_label(const std::string& what, double intensity, double flops_per_s) {
    return what + ": " + base::format::number(intensity) + " FLOP/byte, " +
           base::format::si(flops_per_s, "FLOP/s");
}

}  // namespace

std::optional<Ceilings> ceilings_of(const analysis::RooflineVerdict& r) {
    if (!r.arithmetic_intensity || !r.ridge_point || r.attainable_flops_per_s <= 0 ||
        *r.arithmetic_intensity <= 0 || *r.ridge_point <= 0)
        return std::nullopt;
    Ceilings c;
    c.precision = r.precision;
    // attainable = min(peak, intensity x bandwidth), and the ridge is peak / bandwidth.
    if (*r.arithmetic_intensity >= *r.ridge_point) {
        c.flops_per_s = r.attainable_flops_per_s;
        c.dram_bytes_per_s = r.attainable_flops_per_s / *r.ridge_point;
    } else {
        c.dram_bytes_per_s = r.attainable_flops_per_s / *r.arithmetic_intensity;
        c.flops_per_s = c.dram_bytes_per_s * *r.ridge_point;
    }
    return c;
}

std::optional<Chart> roofline_chart(const nlohmann::json& evidence, std::string& why) {
    const auto report_of = [&](const char* field) -> std::optional<analysis::EvidenceReport> {
        const auto found = evidence.find(field);
        if (found == evidence.end() || found->is_null()) return std::nullopt;
        return analysis::evidence_from_json(*found, std::string("evidence.json: ") + field);
    };
    const auto before = report_of("before");
    const auto after = report_of("after");
    std::optional<Ceilings> ceilings;
    for (const auto* report : {&after, &before})
        if (!ceilings && *report && (*report)->roofline)
            ceilings = ceilings_of(*(*report)->roofline);
    if (!ceilings) {
        why =
            "the evidence has no roofline with both FLOPs and DRAM bytes (no profiling "
            "counters, or a kernel without floating-point work)";
        return std::nullopt;
    }
    Chart chart;
    chart.id = "roofline";
    chart.title = "Roofline (" + ceilings->precision +
                  ", measured ceilings: " + base::format::si(ceilings->dram_bytes_per_s, "B/s") +
                  ", " + base::format::si(ceilings->flops_per_s, "FLOP/s") + ")";
    chart.x_label = "arithmetic intensity (FLOP per DRAM byte)";
    chart.y_label = "achieved " + ceilings->precision + " FLOP/s";
    chart.log_x = chart.log_y = true;

    ChartSeries variants{"profiled variants", "variants", {}, false, false, true};
    const nlohmann::json table = evidence.value("selection_table", nlohmann::json());
    const auto letter = kPrecisionLetter.find(ceilings->precision);
    if (table.is_object() && letter != kPrecisionLetter.end()) {
        const nlohmann::json names = table.value("counters", nlohmann::json::array());
        const nlohmann::json rows = table.value("rows", nlohmann::json::array());
        const nlohmann::json runtimes = table.value("runtime_s", nlohmann::json::array());
        const std::string prefix =
            std::string("smsp__sass_thread_inst_executed_op_") + letter->second;
        for (std::size_t i = 0; i < rows.size() && i < runtimes.size(); ++i) {
            const auto& row = rows[i];
            const double flops = 2 * counter(names, row, prefix + "fma_pred_on.sum") +
                                 counter(names, row, prefix + "add_pred_on.sum") +
                                 counter(names, row, prefix + "mul_pred_on.sum");
            const double bytes = counter(names, row, "dram__bytes_read.sum") +
                                 counter(names, row, "dram__bytes_write.sum");
            const double seconds = runtimes[i].is_number() ? runtimes[i].get<double>() : 0.0;
            if (flops <= 0 || bytes <= 0 || seconds <= 0) continue;
            variants.points.push_back({flops / bytes, flops / seconds,
                                       point_label("variant " + std::to_string(i + 1) + ", " +
                                                       base::format::seconds(seconds),
                                                   flops / bytes, flops / seconds)});
        }
    }
    const auto place = [&](const std::optional<analysis::EvidenceReport>& report,
                           const std::string& name, const std::string& css) {
        ChartSeries series{name, css, {}, false, false, true};
        if (report && report->roofline && report->roofline->arithmetic_intensity) {
            const double ai = *report->roofline->arithmetic_intensity;
            const double achieved = report->roofline->achieved_flops_per_s;
            series.points.push_back(
                {ai, achieved,
                 point_label(name + " (" + report->variant + "), " +
                                 std::string(analysis::to_string(report->roofline->bound)),
                             ai, achieved)});
        }
        return series;
    };
    ChartSeries original = place(before, "original", "original");
    ChartSeries winner = place(after, "winner", "winner");

    // The roof spans the points drawn, a decade either side, and the ridge.
    const double ridge = ceilings->flops_per_s / ceilings->dram_bytes_per_s;
    double lo = ridge, hi = ridge;
    for (const auto* s : {&variants, &original, &winner})
        for (const auto& p : s->points) lo = std::min(lo, p.x), hi = std::max(hi, p.x);
    lo /= 10;
    hi *= 10;
    ChartSeries roof{"measured ceilings", "ceiling", {}, true, false, false};
    roof.points = {{lo, lo * ceilings->dram_bytes_per_s, ""},
                   {ridge, ceilings->flops_per_s, ""},
                   {hi, ceilings->flops_per_s, ""}};
    chart.series = {roof, variants, original, winner};
    return chart;
}

}  // namespace optiml::report
