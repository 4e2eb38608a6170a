#include "driver/analysis/stalls.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "driver/analysis/analysis_error.h"
#include "driver/base/format.h"

namespace optiml::analysis {

namespace {

bool is_latency_subset(std::string_view reason) {
    return reason.ends_with("_not_issued");
}

bool is_stall(const StallSample& sample, std::string_view reason) {
    return !sample.not_stalled && !is_issuing_reason(reason);
}

using LineKey = std::pair<std::string, int>;

}  // namespace

std::vector<LineStalls> stalls_by_line(const std::vector<StallSample>& samples) {
    std::map<LineKey, LineStalls> lines;
    for (const StallSample& sample : samples) {
        const std::string reason = normalize_stall_reason(sample.reason);
        if (is_latency_subset(reason) || !is_stall(sample, reason) || sample.samples == 0) continue;
        LineStalls& entry = lines[{sample.file, sample.line}];
        entry.file = sample.file;
        entry.line = sample.line;
        entry.stalled_samples += sample.samples;
        entry.by_reason[reason] += sample.samples;
    }
    std::vector<LineStalls> sorted;
    sorted.reserve(lines.size());
    for (auto& [key, entry] : lines) sorted.push_back(std::move(entry));
    // std::map already orders by (file, line); a stable sort keeps that order among equal counts.
    std::stable_sort(sorted.begin(), sorted.end(), [](const LineStalls& a, const LineStalls& b) {
        return a.stalled_samples > b.stalled_samples;
    });
    return sorted;
}

StallSummary summarize_stalls(const std::vector<StallSample>& samples, double threshold) {
    if (!std::isfinite(threshold) || threshold < 0.0 || threshold >= 1.0) {
        throw AnalysisError("stalls: threshold: is " + base::format::number(threshold) +
                            "; expected a share in [0, 1), e.g. 0.30 for 30% of stalled samples");
    }
    StallSummary summary;
    summary.threshold = threshold;
    std::map<std::tuple<std::string, int, std::string>, std::uint64_t> by_line_and_reason;
    for (const StallSample& sample : samples) {
        const std::string reason = normalize_stall_reason(sample.reason);
        if (is_latency_subset(reason)) continue;
        summary.total_samples += sample.samples;
        if (!is_stall(sample, reason)) continue;
        summary.stalled_samples += sample.samples;
        by_line_and_reason[{sample.file, sample.line, reason}] += sample.samples;
    }
    if (summary.stalled_samples == 0) return summary;

    const auto stalled = static_cast<double>(summary.stalled_samples);
    for (const auto& [key, count] : by_line_and_reason) {
        const double share = static_cast<double>(count) / stalled;
        if (share <= threshold) continue;
        const auto& [file, line, reason] = key;
        summary.dominant.push_back(
            {"", file, line, reason, count, share, describe_stall_reason(reason)});
    }
    // The map's order (file, line, reason) breaks ties; stable_sort keeps it.
    std::stable_sort(
        summary.dominant.begin(), summary.dominant.end(),
        [](const DominantStall& a, const DominantStall& b) { return a.samples > b.samples; });
    for (std::size_t i = 0; i < summary.dominant.size(); ++i) {
        summary.dominant[i].id = "stall-" + std::to_string(i + 1);
    }
    return summary;
}

}  // namespace optiml::analysis
