// Runs a program to completion with its stdout and stderr captured in one log: how the host
// compiler and nvcc are run (a Subprocess, subprocess.h). A thread that calls this waits for its
// own child only, so several threads (the compile queue's) run several processes at once.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace optiml::base {

struct ProcessResult {
    bool started = false;  // false: the program could not be run (log says why)
    int exit_code = -1;    // -1 when killed by a signal
    std::string log;       // stdout and stderr, interleaved as written
    bool ok() const { return started && exit_code == 0; }
};

// arguments[0] is looked up on PATH unless it has a slash. The output goes to `log_path` (a file
// beside the outputs, removed afterwards: no pipe to drain).
ProcessResult run_process(std::vector<std::string> arguments,
                          const std::filesystem::path& log_path);

// The arguments joined by spaces, for messages.
std::string command_line(const std::vector<std::string>& arguments);

}  // namespace optiml::base
