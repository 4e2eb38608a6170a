// The nightly retune's regression report: for each declared kernel and architecture, the new
// winner against the cached one timed side by side in one run, and the shipped kernel against
// what its cache entry recorded when it was tuned. JSON for machines, Markdown for people
// (docs/ci.md describes both).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace optiml::retune {

// A median with an interval around it, in ms: the ~95% confidence interval of the median where
// the run measured one, else the runs' [min, max] (recorded entries and replayed GPUs).
struct TimeInterval {
    double median = 0.0;
    double low = 0.0;
    double high = 0.0;
    int runs = 0;
};

// "faster" / "slower": the intervals do not overlap; "unchanged": they do.
std::string compare_intervals(const TimeInterval& candidate, const TimeInterval& reference);
// (candidate - reference) / reference, in percent of the medians.
double percent_change(const TimeInterval& candidate, const TimeInterval& reference);
// Slower beyond `threshold_percent` even at the interval's most favourable ends: the candidate's
// low end above the reference's high end by more than the threshold.
bool slower_beyond(const TimeInterval& candidate, const TimeInterval& reference,
                   double threshold_percent);

struct RetuneRow {
    std::string kernel;
    std::string arch;
    std::string spec;
    std::string device;   // where it ran ("NVIDIA H200", or "replay of <file>")
    std::string old_key;  // the key the build used
    std::string new_key;  // the key of the sources and toolchain now
    // "faster", "slower", "unchanged" (new winner vs cached winner, side by side); "new" (no
    // cached entry to compare with), "skipped" (no GPU of the arch here), "failed".
    std::string status;
    std::string note;  // why skipped or failed; anything else a reader must know
    std::string cached_winner;
    std::string new_winner;
    std::optional<TimeInterval> recorded;    // the cached winner as its entry recorded it
    std::optional<TimeInterval> cached_now;  // the cached winner, side by side
    std::optional<TimeInterval> new_now;     // the new winner, side by side
    std::vector<std::string> changes;        // "NVRTC 12.8 -> 13.0", "driver 13000 -> 13010"
    // The new winner replaces the cached one: beaten beyond the spread, or a new key that the
    // cached entry no longer serves. Decided on a replayed GPU too, where nothing is stored.
    bool replaces = false;
    bool cache_updated = false;
    bool published = false;
    bool regression = false;  // set by mark_regressions
    std::string regression_reason;

    // What the build ships after this retune: the new winner where it replaces the cached one
    // (or there was none), else the cached one as measured now.
    const std::optional<TimeInterval>& shipped_now() const {
        return replaces || !cached_now ? new_now : cached_now;
    }
};

struct RetuneReport {
    std::string created;  // UTC
    std::string build_dir;
    std::optional<double> threshold_percent;  // --fail-on-regression
    std::vector<RetuneRow> rows;
    std::size_t regressions() const;
};

// A real regression, beyond `threshold_percent` and the intervals: what ships now is slower than
// the cached winner timed beside it (the new key forces a slower winner), or slower than its
// entry recorded when it was tuned (a driver, a GPU or a clock change).
void mark_regressions(RetuneReport& report, double threshold_percent);

void to_json(nlohmann::json& json, const TimeInterval& interval);
void to_json(nlohmann::json& json, const RetuneRow& row);
void to_json(nlohmann::json& json, const RetuneReport& report);
std::string to_markdown(const RetuneReport& report);

}  // namespace optiml::retune
