#include "driver/report/detail/size_matrix.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "driver/base/format.h"
#include "driver/report/detail/html_text.h"
#include "driver/search/candidate_json.h"
#include "driver/search/search.h"
#include "driver/search/size_dispatch.h"

namespace optiml::report {
namespace {

std::string problem_label(const nlohmann::json& problem) {
    std::string label;
    for (const auto& [name, value] : problem.items())
        label += (label.empty() ? "" : ", ") + name + "=" + value.dump();
    return label;
}

std::string padded(std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

// A row of the table without the padding after its last cell.
std::string row_end(std::string row) {
    row.erase(row.find_last_not_of(' ') + 1);
    return row + "\n";
}

// The record read once: labels, variant names, times and each problem's best.
struct SizeTable {
    std::vector<std::string> labels, variants;
    std::vector<std::vector<double>> times;
    std::vector<double> best;
    // A cell's text: the fraction of the problem's best, "*" within the tolerance; "failed".
    std::string cell(std::size_t v, std::size_t p) const {
        const double t = times.at(v).at(p);
        if (!(t > 0 && best[p] > 0)) return "failed";
        char text[32];
        std::snprintf(text, sizeof text, "%.3f%s", t / best[p],
                      t <= best[p] * (1 + search::kDispatchTolerance) ? "*" : "");
        return text;
    }
};

// Throws std::runtime_error naming the record when it is malformed.
template <typename Use>
auto with_table(const nlohmann::json& sizes, Use&& use) {
    try {
        SizeTable table;
        for (const nlohmann::json& problem : sizes.at("problems"))
            table.labels.push_back(problem_label(problem));
        for (const nlohmann::json& variant : sizes.at("variants"))
            table.variants.push_back(search::format_candidate(search::read_candidate(variant)));
        table.times = sizes.at("times_ms").get<std::vector<std::vector<double>>>();
        table.best.assign(table.labels.size(), 0.0);
        for (const auto& row : table.times)
            for (std::size_t p = 0; p < table.labels.size(); ++p)
                if (row.at(p) > 0 && (table.best[p] == 0.0 || row[p] < table.best[p]))
                    table.best[p] = row[p];
        if (table.times.size() != table.variants.size())
            throw std::out_of_range("times_ms has another number of rows than variants");
        return use(table);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("the manifest's sizes are malformed: ") + e.what());
    } catch (const std::out_of_range& e) {
        throw std::runtime_error(std::string("the manifest's sizes are malformed: ") + e.what());
    }
}

std::string dispatch_text(const nlohmann::json& sizes, const SizeTable& table) {
    if (!sizes.contains("dispatch")) return "";
    std::string out = "dispatch:";
    const nlohmann::json& ranges = sizes.at("dispatch").at("ranges");
    for (std::size_t r = 0; r < ranges.size(); ++r) {
        const nlohmann::json& range = ranges[r];
        const std::size_t first = range.at("first_problem"), last = range.at("last_problem");
        out += (r == 0 ? " " : "; ") + std::string("variant ") +
               std::to_string(range.at("variant").get<int>()) + " for " + table.labels.at(first) +
               (first == last ? "" : " to " + table.labels.at(last)) +
               (range.at("below").is_null()
                    ? std::string(" and above")
                    : " (below " + base::format::number(range.at("below").get<double>()) + ")");
    }
    return out;
}

// What a build from this entry runs (driver/build/size_plan.cpp reads the same record): the
// dispatch's variants by size, or variant 0, the winner at the arguments' own values, at every
// size; and what variant 0 alone takes at its worst problem.
std::string launcher_text(const nlohmann::json& sizes, const SizeTable& table) {
    const auto loss = sizes.at("single_variant_loss").get<std::vector<double>>();
    const auto worst = std::max_element(loss.begin(), loss.end());
    if (worst == loss.end()) return "";
    bool only_winner = true;
    if (sizes.contains("dispatch"))
        for (const nlohmann::json& range : sizes.at("dispatch").at("ranges"))
            only_winner = only_winner && range.at("variant").get<int>() == 0;
    const std::string at = table.labels.at(static_cast<std::size_t>(worst - loss.begin()));
    const std::string times = base::format::number(1 + *worst) + "x that problem's best";
    if (only_winner)
        return "launcher: variant 0 at every size; at " + at + " it " +
               (*worst < 0 ? "fails" : "takes " + times);
    return "launcher: dispatches by size as above (where the entry holds each variant's images); "
           "variant 0 alone would " +
           (*worst < 0 ? "fail" : "take " + times) + " at " + at;
}

}  // namespace

std::string size_matrix_text(const nlohmann::json& sizes) {
    if (sizes.is_null()) return "";
    return with_table(sizes, [&](const SizeTable& table) {
        std::size_t name_width = 0, cell = 8;
        for (std::size_t v = 0; v < table.variants.size(); ++v)
            name_width =
                std::max(name_width, table.variants[v].size() + std::to_string(v).size() + 1);
        for (const std::string& label : table.labels) cell = std::max(cell, label.size() + 1);
        std::ostringstream out;
        out << "  sizes: tuned at " << table.labels.size()
            << " problems; each variant's time as a fraction of that problem's best (* within "
            << std::lround(100 * search::kDispatchTolerance) << "%):\n";
        std::string header = "    " + padded("", name_width);
        for (const std::string& label : table.labels) header += " " + padded(label, cell);
        out << row_end(header);
        for (std::size_t v = 0; v < table.variants.size(); ++v) {
            std::string row =
                "    " + padded(std::to_string(v) + " " + table.variants[v], name_width);
            for (std::size_t p = 0; p < table.labels.size(); ++p)
                row += " " + padded(table.cell(v, p), cell);
            out << row_end(row);
        }
        for (const std::string& line : {dispatch_text(sizes, table), launcher_text(sizes, table)})
            if (!line.empty()) out << "  " << line << "\n";
        return out.str();
    });
}

std::string size_matrix_html(const nlohmann::json& sizes) {
    if (sizes.is_null()) return "";
    return with_table(sizes, [&](const SizeTable& table) {
        std::ostringstream out;
        out << "<table class=\"heat\">\n<tr><th>variant</th>";
        for (const std::string& label : table.labels)
            out << "<th>" << escape_html(label) << "</th>";
        out << "</tr>\n";
        for (std::size_t v = 0; v < table.variants.size(); ++v) {
            out << "<tr><td>" << v << " " << escape_html(table.variants[v]) << "</td>";
            for (std::size_t p = 0; p < table.labels.size(); ++p) {
                const double t = table.times[v][p];
                // Green at the problem's best, red at twice its time or more; grey: failed.
                const double over =
                    t > 0 && table.best[p] > 0 ? std::min(1.0, t / table.best[p] - 1.0) : -1.0;
                const int hue = static_cast<int>(std::lround(120 * (1.0 - over)));
                out << "<td style=\"background:"
                    << (over < 0 ? std::string("#ddd") : "hsl(" + std::to_string(hue) + ",70%,80%)")
                    << "\">" << escape_html(table.cell(v, p)) << "</td>";
            }
            out << "</tr>\n";
        }
        out << "</table>\n";
        for (const std::string& line : {dispatch_text(sizes, table), launcher_text(sizes, table)})
            if (!line.empty()) out << "<p>" << escape_html(line) << "</p>\n";
        return out.str();
    });
}

}  // namespace optiml::report
