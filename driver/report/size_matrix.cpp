#include "driver/report/detail/size_matrix.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "driver/base/format.h"
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

}  // namespace

std::string size_matrix_text(const nlohmann::json& sizes) {
    if (sizes.is_null()) return "";
    try {
        const nlohmann::json& problems = sizes.at("problems");
        const auto times = sizes.at("times_ms").get<std::vector<std::vector<double>>>();
        std::vector<std::string> labels, variants;
        for (const nlohmann::json& problem : problems) labels.push_back(problem_label(problem));
        for (const nlohmann::json& variant : sizes.at("variants"))
            variants.push_back(search::format_candidate(search::read_candidate(variant)));
        std::vector<double> best(labels.size(), 0.0);
        for (const auto& row : times)
            for (std::size_t p = 0; p < labels.size(); ++p)
                if (row.at(p) > 0 && (best[p] == 0.0 || row[p] < best[p])) best[p] = row[p];
        std::size_t name_width = 0, cell = 8;
        for (std::size_t v = 0; v < variants.size(); ++v)
            name_width = std::max(name_width, variants[v].size() + std::to_string(v).size() + 1);
        for (const std::string& label : labels) cell = std::max(cell, label.size() + 1);

        std::ostringstream out;
        out << "  sizes: tuned at " << labels.size()
            << " problems; each variant's time as a fraction of that problem's best (* within "
            << std::lround(100 * search::kDispatchTolerance) << "%):\n";
        std::string header = "    " + padded("", name_width);
        for (const std::string& label : labels) header += " " + padded(label, cell);
        out << row_end(header);
        for (std::size_t v = 0; v < variants.size(); ++v) {
            std::string row = "    " + padded(std::to_string(v) + " " + variants[v], name_width);
            for (std::size_t p = 0; p < labels.size(); ++p) {
                const double t = times.at(v).at(p);
                char text[32];
                if (t > 0 && best[p] > 0)
                    std::snprintf(text, sizeof text, "%.3f%s", t / best[p],
                                  t <= best[p] * (1 + search::kDispatchTolerance) ? "*" : "");
                else
                    std::snprintf(text, sizeof text, "failed");
                row += " " + padded(text, cell);
            }
            out << row_end(row);
        }
        if (sizes.contains("dispatch")) {
            out << "  dispatch:";
            const nlohmann::json& ranges = sizes.at("dispatch").at("ranges");
            for (std::size_t r = 0; r < ranges.size(); ++r) {
                const nlohmann::json& range = ranges[r];
                const std::size_t first = range.at("first_problem"),
                                  last = range.at("last_problem");
                out << (r == 0 ? " " : "; ") << "variant " << range.at("variant").get<int>()
                    << " for " << labels.at(first)
                    << (first == last ? "" : " to " + labels.at(last))
                    << (range.at("below").is_null()
                            ? std::string(" and above")
                            : " (below " + base::format::number(range.at("below").get<double>()) +
                                  ")");
            }
            out << "\n";
        }
        const auto loss = sizes.at("single_variant_loss").get<std::vector<double>>();
        const auto worst = std::max_element(loss.begin(), loss.end());
        if (worst != loss.end())
            out << "  shipped: variant 0 at every size (the launcher does not dispatch by size "
                   "yet); at "
                << labels.at(static_cast<std::size_t>(worst - loss.begin()))
                << (*worst < 0
                        ? std::string(" it fails")
                        : " it takes " + base::format::number(1 + *worst) + "x that problem's best")
                << "\n";
        return out.str();
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("the manifest's sizes are malformed: ") + e.what());
    } catch (const std::out_of_range& e) {
        throw std::runtime_error(std::string("the manifest's sizes are malformed: ") + e.what());
    }
}

}  // namespace optiml::report
