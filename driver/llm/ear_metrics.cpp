#include "driver/llm/ear_metrics.h"

#include <algorithm>

namespace optiml::llm {

std::optional<double> evidence_coverage(const std::vector<Change>& changes,
                                        const std::vector<std::string>& valid_ids) {
    if (changes.empty()) return std::nullopt;
    const auto cites_valid = [&](const Change& change) {
        return std::any_of(change.evidence.begin(), change.evidence.end(), [&](const auto& id) {
            return std::find(valid_ids.begin(), valid_ids.end(), id) != valid_ids.end();
        });
    };
    const auto covered = std::count_if(changes.begin(), changes.end(), cites_valid);
    return static_cast<double>(covered) / static_cast<double>(changes.size());
}

std::optional<double> localization_agreement(const std::vector<Change>& changes,
                                             const std::vector<int>& hotspot_lines) {
    if (hotspot_lines.empty()) return std::nullopt;
    const auto covered = std::count_if(hotspot_lines.begin(), hotspot_lines.end(), [&](int line) {
        return std::any_of(changes.begin(), changes.end(), [&](const Change& c) {
            return c.first_line <= line && line <= c.last_line;
        });
    });
    return static_cast<double>(covered) / static_cast<double>(hotspot_lines.size());
}

std::optional<double> directional_consistency(const search::Consistency& consistency) {
    const int moved = consistency.held + consistency.contradicted;
    if (moved == 0) return std::nullopt;
    return static_cast<double>(consistency.held) / moved;
}

std::vector<int> hotspot_lines(const analysis::EvidenceReport& report, int first_line,
                               int last_line) {
    std::vector<int> lines;
    if (!report.stalls) return lines;
    for (const auto& stall : report.stalls->dominant)
        if (first_line <= stall.line && stall.line <= last_line &&
            std::find(lines.begin(), lines.end(), stall.line) == lines.end())
            lines.push_back(stall.line);
    return lines;
}

std::vector<search::Effect> implied_effects(const std::vector<std::string>& ids,
                                            const analysis::EvidenceReport& report) {
    std::vector<search::Effect> effects;
    const auto add = [&](search::Effect effect) {
        if (std::find(effects.begin(), effects.end(), effect) == effects.end())
            effects.push_back(std::move(effect));
    };
    for (const std::string& id : ids) {
        if (id == "roofline" && report.roofline) {
            switch (report.roofline->bound) {
                case analysis::Bound::Memory:
                    add({"dram_bytes", -1});
                    break;
                case analysis::Bound::Compute:
                    add({"instructions_executed", -1});
                    break;
                case analysis::Bound::Latency:
                    add({"achieved_occupancy_pct", +1});
                    break;
            }
        }
        if (!report.stalls) continue;
        for (const auto& stall : report.stalls->dominant) {
            if (stall.id != id) continue;
            const bool memory = stall.reason == "long_scoreboard" || stall.reason == "lg_throttle";
            add({memory ? "l1tex_sectors" : "instructions_executed", -1});
        }
    }
    return effects;
}

EarScores mean_scores(const std::vector<EarScores>& scores) {
    const auto mean = [&](std::optional<double> EarScores::*field) -> std::optional<double> {
        double sum = 0.0;
        int count = 0;
        for (const EarScores& s : scores)
            if (s.*field) {
                sum += *(s.*field);
                ++count;
            }
        if (count == 0) return std::nullopt;
        return sum / count;
    };
    return {mean(&EarScores::evidence_coverage), mean(&EarScores::localization),
            mean(&EarScores::directional)};
}

nlohmann::json to_json(const EarScores& scores) {
    const auto value = [](const std::optional<double>& v) {
        return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
    };
    return {{"evidence_coverage", value(scores.evidence_coverage)},
            {"localization", value(scores.localization)},
            {"directional", value(scores.directional)}};
}

}  // namespace optiml::llm
