// `optiml tune --replay`: a strategy against a recorded space on the CPU (no GPU, no spec), and
// how close it came to the recording's optimum.
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>

namespace optiml::cli {

struct ReplayOptions {
    std::filesystem::path recording;
    std::string strategy = "auto";
    int evaluations = 200;
    std::uint64_t seed = 1;
};

// Returns the exit status: 0, or 1 with an error written to `err` (unreadable recording, unknown
// strategy).
int run_replay(const ReplayOptions& options, std::ostream& out, std::ostream& err);

}  // namespace optiml::cli
