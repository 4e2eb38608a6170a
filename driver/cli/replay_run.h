// `optiml tune --replay`: a strategy against a recorded space on the CPU (no GPU, no spec), and
// how close it came to the recording's optimum.
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>

#include "driver/search/search.h"

namespace optiml::cli {

struct ReplayOptions {
    std::filesystem::path recording;
    std::string strategy = "auto";
    int evaluations = 200;
    std::uint64_t seed = 1;
    // Streams as tune does on the GPU host the recordings come from (the slow start, then this
    // many in flight, results back in submission order); 0 replays batches of 8 instead.
    std::size_t in_flight = search::kMaxStreamingDepth;
};

// Returns the exit status: 0, or 1 with an error written to `err` (unreadable recording, unknown
// strategy).
int run_replay(const ReplayOptions& options, std::ostream& out, std::ostream& err);

}  // namespace optiml::cli
