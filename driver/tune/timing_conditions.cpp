#include "driver/tune/timing_conditions.h"

#include <iomanip>
#include <sstream>

namespace optiml::tune {
namespace {

const char* const kConditions[] = {"cold", "warm"};

double median_of(const search::Outcome& outcome, const std::string& condition) {
    const std::optional<double>& median =
        condition == "warm" ? outcome.details.warm_median_ms : outcome.details.cold_median_ms;
    return median.value_or(0.0);
}

std::string ratio(double speedup) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(2) << speedup << "x";
    return out.str();
}

}  // namespace

void add_conditions(const measure::Measurement& m, search::OutcomeDetails& details) {
    if (m.decided_by.empty()) return;
    details.decided_warm = m.decided_by == "warm";
    details.cold_median_ms = m.cold_median_ms;
    if (m.has_incumbent) details.incumbent_cold_median_ms = m.incumbent_cold_median_ms;
    if (m.warm_runs == 0) return;
    details.warm_median_ms = m.warm_median_ms;
    details.warm_burst = m.warm_burst;
    details.warm_runs = m.warm_runs;
    if (m.has_incumbent) details.incumbent_warm_median_ms = m.incumbent_warm_median_ms;
}

nlohmann::json timing_manifest(const spec::Spec& spec, const search::Outcome& original,
                               const search::Outcome& winner) {
    nlohmann::json timing = {{"cold_cache", spec::to_string(spec.timing.cold_cache)},
                             {"decided_by", spec::to_string(spec.timing.decide_by)}};
    for (const std::string condition : kConditions) {
        const double mine = median_of(winner, condition), theirs = median_of(original, condition);
        if (mine <= 0.0 || theirs <= 0.0) continue;
        timing[condition] = {
            {"time_ms", mine}, {"original_time_ms", theirs}, {"speedup", theirs / mine}};
        if (condition == "warm") timing[condition]["burst"] = winner.details.warm_burst.value_or(0);
    }
    return timing;
}

std::string speedup_condition(const cache::EntryManifest& manifest) {
    const bool recorded = manifest.timing.is_object();
    return (recorded ? manifest.timing.value("decided_by", "cold") : "cold") + " L2";
}

std::string speedup_text(const cache::EntryManifest& manifest) {
    const std::string deciding = speedup_condition(manifest);
    std::string text = ratio(manifest.speedup) + ", " + deciding;
    for (const std::string condition : kConditions)
        if (condition + " L2" != deciding && manifest.timing.is_object() &&
            manifest.timing.contains(condition))
            text +=
                "; " + condition + " L2 " + ratio(manifest.timing[condition].value("speedup", 0.0));
    return text;
}

}  // namespace optiml::tune
