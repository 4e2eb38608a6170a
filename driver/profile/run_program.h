// Runs a user's program as a child process: its standard streams are the driver's (its output
// shows as usual), its environment is the driver's plus the given variables.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace optiml::profile {

struct ProgramExit {
    bool signaled = false;  // killed by a signal rather than exiting
    int code = 0;           // the exit status, or the signal number when signaled
};

// Starts argv[0] (searched on PATH when it has no '/'), waits for it, and returns how it ended.
// Ctrl-C goes to the program; the driver outlives it to report. Throws ProfileError when the
// program cannot be started (not found, not executable), naming it and the fix.
ProgramExit run_program(const std::vector<std::string>& argv,
                        const std::vector<std::pair<std::string, std::string>>& environment);

// "exited with status 3", "was killed by signal 11 (Segmentation fault)".
std::string describe(const ProgramExit& exit);

}  // namespace optiml::profile
