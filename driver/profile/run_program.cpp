#include "driver/profile/run_program.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "driver/base/subprocess.h"
#include "driver/profile/profile_error.h"

namespace optiml::profile {

namespace {

std::string start_failure(const std::string& program, const base::SpawnFailure& failure) {
    const int error = failure.error;
    switch (failure.step) {
        case base::SpawnFailure::Step::Pipe:
            return std::string("cannot create a pipe: ") + std::strerror(error);
        case base::SpawnFailure::Step::LogFile:  // no log file here
        case base::SpawnFailure::Step::Fork:
            return std::string("cannot start a process: ") + std::strerror(error);
        case base::SpawnFailure::Step::Exec:
            break;
    }
    std::string message = "cannot run '" + program + "': " + std::strerror(error);
    switch (error) {
        case ENOENT:
            return message +
                   "; check the path (a program in the current directory needs "
                   "'./'), or that the program is on PATH";
        case EACCES:
            return message + "; it must be an executable file (chmod +x)";
        case ENOEXEC:
            return message + "; it is not a program this machine can run";
        default:
            return message;
    }
}

}  // namespace

ProgramExit run_program(const std::vector<std::string>& argv,
                        const std::vector<std::pair<std::string, std::string>>& environment) {
    if (argv.empty() || argv.front().empty()) {
        throw ProfileError("no program to run: name it after `--`, e.g. `optiml profile -- ./app`");
    }
    base::SpawnOptions options;
    options.arguments = argv;
    options.environment = environment;
    // While the program runs, the terminal's Ctrl-C and Ctrl-\ are for it alone.
    options.foreground = true;
    std::cout.flush();  // the program's output must come after what the driver printed
    std::cerr.flush();
    std::fflush(nullptr);
    base::Subprocess program;
    if (const std::optional<base::SpawnFailure> failure = program.start(options)) {
        throw ProfileError(start_failure(argv.front(), *failure));
    }
    const base::ExitStatus exit = program.wait();
    if (exit.wait_error != 0) {
        throw ProfileError(std::string("cannot wait for '") + argv.front() +
                           "': " + std::strerror(exit.wait_error));
    }
    return {exit.signaled, exit.code};
}

std::string describe(const ProgramExit& exit) {
    if (!exit.signaled) return "exited with status " + std::to_string(exit.code);
    const char* name = strsignal(exit.code);
    return "was killed by signal " + std::to_string(exit.code) +
           (name != nullptr ? " (" + std::string(name) + ")" : std::string());
}

}  // namespace optiml::profile
