#include "driver/search/recording.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <numeric>
#include <set>

namespace optiml::search {

std::optional<double> Recording::optimum_ms() const {
    std::optional<double> best;
    for (const auto& [config, outcome] : records)
        if (outcome.ok && (!best || outcome.median_ms < *best)) best = outcome.median_ms;
    return best;
}

std::size_t Recording::successes() const {
    return static_cast<std::size_t>(std::count_if(
        records.begin(), records.end(), [](const auto& record) { return record.second.ok; }));
}

std::size_t Recording::within(double ratio) const {
    const auto optimum = optimum_ms();
    if (!optimum) return 0;
    return static_cast<std::size_t>(
        std::count_if(records.begin(), records.end(), [&](const auto& record) {
            return record.second.ok && record.second.median_ms <= *optimum * ratio;
        }));
}

void restrict_to_records(Recording& recording) {
    // A copy of the keys, so the space stays right when the recording is copied or moved.
    auto recorded = std::make_shared<std::set<Config>>();
    for (const auto& [config, outcome] : recording.records) recorded->insert(config);
    recording.space.is_valid = [recorded](const Config& config) {
        return recorded->count(config) > 0;
    };
}

void sort_parameters(Space& space) {
    std::vector<std::size_t> order(space.names.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return space.names[a] < space.names[b]; });
    std::vector<std::string> names;
    std::vector<std::vector<std::int64_t>> values;
    for (const std::size_t i : order) {
        names.push_back(std::move(space.names[i]));
        if (i < space.values.size()) values.push_back(std::move(space.values[i]));
    }
    space.names = std::move(names);
    space.values = std::move(values);
}

Outcome ReplayEvaluator::answer(const Candidate& candidate) const {
    const bool original = candidate.is_original_source() && candidate.options.empty();
    const auto found = recording_.records.find(candidate.parameters);
    if (original && found != recording_.records.end()) return found->second;
    Outcome missing;
    missing.status = "not_recorded";
    missing.message = format_candidate(candidate) + " is not in " + recording_.file;
    return missing;
}

std::vector<Outcome> ReplayEvaluator::evaluate(const std::vector<Candidate>& batch) {
    std::vector<Outcome> outcomes;
    for (const Candidate& candidate : batch) outcomes.push_back(answer(candidate));
    return outcomes;
}

void ReplayEvaluator::submit(const Candidate& candidate) {
    if (in_flight_ == 0) Evaluator::submit(candidate);  // throws: this one answers batches
    submitted_.push_back(candidate);
}

std::optional<std::pair<Candidate, Outcome>> ReplayEvaluator::collect() {
    if (submitted_.empty()) return std::nullopt;
    Candidate candidate = std::move(submitted_.front());
    submitted_.pop_front();
    Outcome outcome = answer(candidate);
    return std::pair{std::move(candidate), std::move(outcome)};
}

std::optional<std::size_t> evaluations_until(const Result& result, double target_ms) {
    for (std::size_t i = 0; i < result.trace.size(); ++i) {
        const Outcome& outcome = result.trace[i].outcome;
        if (outcome.ok && outcome.median_ms <= target_ms) return i + 1;
    }
    return std::nullopt;
}

double best_after(const Result& result, std::size_t evaluations) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < std::min(evaluations, result.trace.size()); ++i)
        if (result.trace[i].outcome.ok) best = std::min(best, result.trace[i].outcome.median_ms);
    return best;
}

}  // namespace optiml::search
