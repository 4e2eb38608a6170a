#include "driver/search/replay_trace.h"

#include <algorithm>

#include "driver/search/candidate_json.h"

namespace optiml::search {
namespace {

// A row of the shape recordings and manifests' traces have, plus its place and the best so far.
nlohmann::ordered_json evaluation_json(const TraceItem& item, std::size_t number,
                                       const std::optional<double>& best_ms) {
    nlohmann::ordered_json row = {{"evaluation", number}};
    nlohmann::json candidate;
    write_candidate(item.candidate, candidate);
    row["parameters"] = item.candidate.parameters;
    for (const auto& [key, value] : candidate.items())
        if (key != "parameters") row[key] = nlohmann::ordered_json(value);
    const Outcome& outcome = item.outcome;
    row["status"] = outcome.ok ? "ok" : outcome.status;
    if (outcome.ok)
        row["time_ms"] = {{"median", outcome.median_ms},
                          {"min", outcome.min_ms},
                          {"max", outcome.max_ms},
                          {"runs", outcome.runs}};
    if (!outcome.message.empty()) row["message"] = outcome.message;
    row["best_ms"] = best_ms ? nlohmann::ordered_json(*best_ms) : nlohmann::ordered_json(nullptr);
    return row;
}

}  // namespace

const char* baseline_source_key(BaselineSource source) {
    switch (source) {
        case BaselineSource::recording:
            return "recording";
        case BaselineSource::first_recorded:
            return "first_recorded";
        case BaselineSource::named:
            return "--baseline";
    }
    return "recording";
}

nlohmann::ordered_json replay_trace_json(const Recording& recording, const Result& result,
                                         const ReplaySettings& settings) {
    const std::optional<double> optimum = recording.optimum_ms();
    nlohmann::ordered_json json = {
        {"format", "optiml-replay-trace"},
        {"version", 1},
        {"recording",
         {{"file", recording.file},
          {"format", recording.format},
          {"kernel", recording.kernel},
          {"device", recording.device},
          {"parameters", recording.space.names},
          {"configurations", recording.records.size()},
          {"succeeded", recording.successes()},
          {"within_2_percent", recording.within(1.02)}}},
        {"search",
         {{"strategy", result.strategy},
          {"requested_strategy", settings.strategy},
          {"seed", settings.seed},
          {"budget_evaluations", settings.budget_evaluations},
          {"pipeline", pipeline_text(settings.in_flight, kDefaultBatchSize)},
          {"stop_reason", result.stop_reason}}},
        {"baseline",
         {{"parameters", recording.space.defaults},
          {"source", baseline_source_key(recording.baseline_source)}}}};

    nlohmann::ordered_json evaluations = nlohmann::ordered_json::array();
    std::optional<double> best_ms;
    for (std::size_t i = 0; i < result.trace.size(); ++i) {
        const Outcome& outcome = result.trace[i].outcome;
        if (outcome.ok) best_ms = std::min(best_ms.value_or(outcome.median_ms), outcome.median_ms);
        evaluations.push_back(evaluation_json(result.trace[i], i + 1, best_ms));
    }
    json["evaluations"] = std::move(evaluations);

    nlohmann::ordered_json summary = {{"evaluations", result.trace.size()},
                                      {"best", nullptr},
                                      {"optimum_ms", optimum ? nlohmann::ordered_json(*optimum)
                                                             : nlohmann::ordered_json(nullptr)},
                                      {"ratio", nullptr},
                                      {"evaluations_to_within_2_percent", nullptr}};
    if (result.best) {
        const TraceItem& best = result.trace[*result.best];
        summary["best"] = {{"evaluation", *result.best + 1},
                           {"parameters", best.candidate.parameters},
                           {"time_ms", best.outcome.median_ms}};
        if (optimum) summary["ratio"] = best.outcome.median_ms / *optimum;
    }
    if (optimum)
        if (const auto within = evaluations_until(result, *optimum * 1.02))
            summary["evaluations_to_within_2_percent"] = *within;
    json["summary"] = std::move(summary);
    return json;
}

std::string replay_trace_text(const nlohmann::ordered_json& trace) {
    std::string text = "{";
    const char* separator = "\n";
    for (const auto& [key, value] : trace.items()) {
        text += separator;
        text += " " + nlohmann::ordered_json(key).dump() + ": ";
        if (value.is_array() && !value.empty()) {
            text += "[";
            for (std::size_t i = 0; i < value.size(); ++i)
                text += (i == 0 ? "\n  " : ",\n  ") + value[i].dump();
            text += "\n ]";
        } else {
            text += value.dump();
        }
        separator = ",\n";
    }
    return text + "\n}\n";
}

}  // namespace optiml::search
