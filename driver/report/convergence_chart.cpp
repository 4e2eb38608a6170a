#include "driver/report/detail/convergence_chart.h"

#include <algorithm>
#include <limits>
#include <map>

#include "driver/base/format.h"
#include "driver/report/detail/html_text.h"
#include "driver/search/candidate_json.h"

namespace optiml::report {

std::vector<Chart> convergence_charts(const cache::EntryManifest& manifest, std::string& why) {
    static const nlohmann::json kNoTrace = nlohmann::json::array();
    const nlohmann::json& trace = manifest.trace.is_array() ? manifest.trace : kNoTrace;
    std::string strategy = manifest.search.strategy.empty() ? "search" : manifest.search.strategy;
    if (const auto plus = strategy.find(" + transformations"); plus != std::string::npos)
        strategy.resize(plus);
    const std::string phases[] = {"parameters (" + strategy + ")", "transformations"};
    const std::string css[] = {"phase-parameters", "phase-transformations"};

    ChartSeries by_count[2], by_time[2];
    for (int p = 0; p < 2; ++p) {
        by_count[p] = {phases[p], css[p], {}, false, true, true};
        by_time[p] = by_count[p];
    }
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < trace.size(); ++i) {
        const auto& row = trace[i];
        if (row.value("status", "") != "ok" || !row.contains("time_ms")) continue;
        const double median = row["time_ms"].value("median", 0.0);
        if (median <= 0 || median >= best) continue;  // only improvements are points
        best = median;
        const search::Candidate candidate = search::read_candidate(row);
        const int phase = candidate.is_original_source() && candidate.options.empty() ? 0 : 1;
        const std::string label = base::format::seconds(median * 1e-3) + " at evaluation " +
                                  std::to_string(i + 1) + ": " +
                                  search::format_candidate(candidate);
        by_count[phase].points.push_back({static_cast<double>(i + 1), median, label});
        by_time[phase].points.push_back({row.value("elapsed_s", 0.0), median, label});
    }
    if (by_count[0].points.empty() && by_count[1].points.empty()) {
        why = "the trace holds no correct result";
        return {};
    }
    // The last phase's curve runs on to the end of the search: the plateau after its last gain.
    const int last = by_count[1].points.empty() ? 0 : 1;
    by_count[last].points.push_back({static_cast<double>(trace.size()), best, "", false});
    by_time[last].points.push_back(
        {std::max(manifest.search.wall_s, by_time[last].points.back().x), best, "", false});
    const auto chart = [&](const std::string& id, const std::string& x_label, ChartSeries* series) {
        Chart c;
        c.id = id;
        c.title = "Best so far against " + x_label;
        c.x_label = x_label;
        c.y_label = "best median (ms)";
        c.log_y = true;
        for (int p = 0; p < 2; ++p)
            if (!series[p].points.empty()) c.series.push_back(series[p]);
        return c;
    };
    return {chart("convergence-evaluations", "evaluations", by_count),
            chart("convergence-time", "wall time (s)", by_time)};
}

}  // namespace optiml::report
