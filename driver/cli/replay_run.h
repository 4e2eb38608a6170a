// `optiml tune --replay`: a strategy against a recorded space on the CPU (no GPU, no spec), and
// how close it came to the recording's optimum.
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>

#include "driver/search/search.h"

namespace optiml::cli {

// A replay's default budget: enough for a search to reach the optimum of a large space, as
// bench/search_efficiency counts it (a replay ends sooner when every configuration was tried).
inline constexpr int kReplayEvaluations = 1000;

struct ReplayOptions {
    std::filesystem::path recording;
    std::string strategy = "auto";
    int evaluations = kReplayEvaluations;
    std::uint64_t seed = 1;
    // Streams as tune does on the GPU host the recordings come from (the slow start, then this
    // many in flight, results back in submission order); 0 replays batches of 8 instead.
    std::size_t in_flight = search::kMaxStreamingDepth;
    // The baseline ("name=value,name=value"; search::recorded_configuration), where the
    // recording's default is not wanted or it has none; empty: the recording's.
    std::string baseline;
    // Where to write the replay's trace as JSON (docs/replay.md#trace); empty: nowhere.
    std::filesystem::path trace;
};

// Returns the exit status: 0, or 1 with an error written to `err` (unreadable recording, unknown
// strategy, a --baseline not recorded, a trace that cannot be written).
int run_replay(const ReplayOptions& options, std::ostream& out, std::ostream& err);

}  // namespace optiml::cli
