// A replay's trace as JSON (docs/replay.md#trace): what was replayed and how, every evaluation
// in order with its recorded outcome and the best time so far, and how close the search came.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "driver/search/recording.h"

namespace optiml::search {

// How the replay ran, beside the recording and the search's result.
struct ReplaySettings {
    std::string strategy;  // as asked for (Result::strategy names the one that ran)
    std::uint64_t seed = 1;
    int budget_evaluations = 0;
    std::size_t in_flight = 0;  // 0: batches of kDefaultBatchSize
};

// "recording", "first_recorded" or "--baseline".
const char* baseline_source_key(BaselineSource source);

// The fields in the order docs/replay.md gives them.
nlohmann::ordered_json replay_trace_json(const Recording& recording, const Result& result,
                                         const ReplaySettings& settings);

// The trace as a file holds it: each top-level field on a line of its own, each evaluation too.
std::string replay_trace_text(const nlohmann::ordered_json& trace);

}  // namespace optiml::search
