#include "driver/retune/retune_report.h"

#include <cstdio>
#include <sstream>

#include "driver/base/format.h"

namespace optiml::retune {
namespace {

using base::format::number;

std::string percent(double value) {
    char text[32];
    std::snprintf(text, sizeof(text), "%+.1f%%", value);
    return text;
}

// "0.1234 ms [0.1230, 0.1240]"
std::string interval_text(const std::optional<TimeInterval>& t) {
    if (!t) return "—";
    return number(t->median) + " ms [" + number(t->low) + ", " + number(t->high) + "]";
}

std::string cell(std::string text) {
    for (std::size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2))
        text.replace(at, 1, "\\|");
    return text.empty() ? "—" : text;
}

}  // namespace

std::string compare_intervals(const TimeInterval& candidate, const TimeInterval& reference) {
    if (candidate.high < reference.low) return "faster";
    if (candidate.low > reference.high) return "slower";
    return "unchanged";
}

double percent_change(const TimeInterval& candidate, const TimeInterval& reference) {
    return reference.median > 0 ? 100.0 * (candidate.median - reference.median) / reference.median
                                : 0.0;
}

bool slower_beyond(const TimeInterval& candidate, const TimeInterval& reference,
                   double threshold_percent) {
    return candidate.low > reference.high * (1.0 + threshold_percent / 100.0);
}

std::size_t RetuneReport::regressions() const {
    std::size_t count = 0;
    for (const auto& row : rows) count += row.regression ? 1 : 0;
    return count;
}

void mark_regressions(RetuneReport& report, double threshold_percent) {
    report.threshold_percent = threshold_percent;
    for (auto& row : report.rows) {
        row.regression = false;
        row.regression_reason.clear();
        const auto& shipped = row.shipped_now();
        if (!shipped) continue;
        if (row.cached_now && slower_beyond(*shipped, *row.cached_now, threshold_percent)) {
            row.regression = true;
            row.regression_reason =
                "the new winner, which replaces the cached one under the new "
                "key, is " +
                percent(percent_change(*shipped, *row.cached_now)) +
                " slower than it, side by side";
        } else if (row.recorded && slower_beyond(*shipped, *row.recorded, threshold_percent)) {
            row.regression = true;
            row.regression_reason = "what ships is " +
                                    percent(percent_change(*shipped, *row.recorded)) +
                                    " slower than its entry recorded when it was tuned";
        }
    }
}

void to_json(nlohmann::json& json, const TimeInterval& t) {
    json = {{"median_ms", t.median}, {"low_ms", t.low}, {"high_ms", t.high}, {"runs", t.runs}};
}

void to_json(nlohmann::json& json, const RetuneRow& row) {
    const auto optional = [](const std::optional<TimeInterval>& t) {
        return t ? nlohmann::json(*t) : nlohmann::json(nullptr);
    };
    json = {{"kernel", row.kernel},
            {"arch", row.arch},
            {"spec", row.spec},
            {"device", row.device},
            {"old_key", row.old_key},
            {"new_key", row.new_key},
            {"status", row.status},
            {"note", row.note},
            {"cached_winner", row.cached_winner},
            {"new_winner", row.new_winner},
            {"recorded", optional(row.recorded)},
            {"cached_now", optional(row.cached_now)},
            {"new_now", optional(row.new_now)},
            {"changes", row.changes},
            {"replaces", row.replaces},
            {"cache_updated", row.cache_updated},
            {"published", row.published},
            {"regression", row.regression},
            {"regression_reason", row.regression_reason}};
    json["change_percent"] = row.new_now && row.cached_now
                                 ? nlohmann::json(percent_change(*row.new_now, *row.cached_now))
                                 : nlohmann::json(nullptr);
    const auto& shipped = row.shipped_now();
    json["since_recorded_percent"] = shipped && row.recorded
                                         ? nlohmann::json(percent_change(*shipped, *row.recorded))
                                         : nlohmann::json(nullptr);
}

void to_json(nlohmann::json& json, const RetuneReport& report) {
    json = {
        {"format", "optiml-retune-report"},
        {"version", 1},
        {"created", report.created},
        {"build_dir", report.build_dir},
        {"threshold_percent", report.threshold_percent ? nlohmann::json(*report.threshold_percent)
                                                       : nlohmann::json(nullptr)},
        {"regressions", report.regressions()},
        {"rows", report.rows}};
}

std::string to_markdown(const RetuneReport& report) {
    std::ostringstream out;
    out << "# OptiML retune report\n\n"
        << "Build `" << report.build_dir << "`, " << report.created << ". ";
    if (report.threshold_percent)
        out << report.regressions() << " regression(s) beyond " << number(*report.threshold_percent)
            << "%.\n\n";
    else
        out << "No regression threshold (`--fail-on-regression`) given.\n\n";
    out << "New winner against the cached winner, timed side by side in one run; intervals are "
           "the median's ~95% confidence interval on a GPU, the runs' [min, max] for recorded "
           "and replayed times.\n\n"
        << "| kernel | arch | status | cached winner now | new winner now | change | as recorded "
           "| since recorded | cache | regression |\n"
        << "|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& row : report.rows) {
        const auto& shipped = row.shipped_now();
        out << "| " << cell(row.kernel) << " | " << row.arch << " | " << row.status << " | "
            << interval_text(row.cached_now) << " | " << interval_text(row.new_now) << " | "
            << (row.new_now && row.cached_now
                    ? percent(percent_change(*row.new_now, *row.cached_now))
                    : "—")
            << " | " << interval_text(row.recorded) << " | "
            << (shipped && row.recorded ? percent(percent_change(*shipped, *row.recorded)) : "—")
            << " | "
            << (row.cache_updated ? "updated"
                : row.replaces    ? "would update"
                                  : "kept")
            << (row.published ? ", published" : "") << " | " << (row.regression ? "**yes**" : "no")
            << " |\n";
    }
    for (const auto& row : report.rows) {
        out << "\n## " << row.kernel << " (" << row.arch << ")\n\n"
            << "- spec: `" << row.spec << "`; on " << cell(row.device) << "\n"
            << "- key: " << (row.old_key.empty() ? "none" : row.old_key.substr(0, 16));
        if (row.new_key != row.old_key) out << " -> " << row.new_key.substr(0, 16) << " (changed)";
        out << "\n- cached winner: " << cell(row.cached_winner) << "\n"
            << "- new winner: " << cell(row.new_winner) << "\n";
        for (const auto& change : row.changes)
            out << "- changed since the entry: " << change << "\n";
        if (!row.note.empty()) out << "- note: " << row.note << "\n";
        if (row.regression) out << "- **regression**: " << row.regression_reason << "\n";
    }
    return out.str();
}

}  // namespace optiml::retune
