#include "driver/profile/run_program.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string_view>

#include "driver/profile/profile_error.h"

extern char** environ;

namespace optiml::profile {

namespace {

std::vector<std::string> environment_with(
    const std::vector<std::pair<std::string, std::string>>& overrides) {
    std::vector<std::string> entries;
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        const std::string_view text(*entry);
        const std::string_view name = text.substr(0, text.find('='));
        bool replaced = false;
        for (const auto& [override_name, value] : overrides) replaced |= name == override_name;
        if (!replaced) entries.emplace_back(text);
    }
    for (const auto& [name, value] : overrides) entries.push_back(name + "=" + value);
    return entries;
}

std::vector<char*> pointers_to(std::vector<std::string>& strings) {
    std::vector<char*> pointers;
    for (std::string& text : strings) pointers.push_back(text.data());
    pointers.push_back(nullptr);
    return pointers;
}

std::string start_failure(const std::string& program, int error) {
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

// While the program runs, the terminal's Ctrl-C and Ctrl-\ are for it alone.
class TerminalSignalsIgnored {
  public:
    TerminalSignalsIgnored() {
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        sigemptyset(&ignore.sa_mask);
        sigaction(SIGINT, &ignore, &interrupt_);
        sigaction(SIGQUIT, &ignore, &quit_);
    }
    ~TerminalSignalsIgnored() {
        sigaction(SIGINT, &interrupt_, nullptr);
        sigaction(SIGQUIT, &quit_, nullptr);
    }
    TerminalSignalsIgnored(const TerminalSignalsIgnored&) = delete;
    TerminalSignalsIgnored& operator=(const TerminalSignalsIgnored&) = delete;

  private:
    struct sigaction interrupt_ {};
    struct sigaction quit_ {};
};

}  // namespace

ProgramExit run_program(const std::vector<std::string>& argv,
                        const std::vector<std::pair<std::string, std::string>>& environment) {
    if (argv.empty() || argv.front().empty()) {
        throw ProfileError("no program to run: name it after `--`, e.g. `optiml profile -- ./app`");
    }
    std::vector<std::string> arguments = argv;
    std::vector<std::string> variables = environment_with(environment);
    std::vector<char*> argument_pointers = pointers_to(arguments);
    std::vector<char*> variable_pointers = pointers_to(variables);

    // The child reports a failed exec through this pipe; a successful exec closes it empty.
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        throw ProfileError(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    std::cout.flush();  // the program's output must come after what the driver printed
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t child = fork();
    if (child < 0) {
        const int error = errno;
        close(report[0]);
        close(report[1]);
        throw ProfileError(std::string("cannot start a process: ") + std::strerror(error));
    }
    if (child == 0) {
        close(report[0]);
        execvpe(argument_pointers[0], argument_pointers.data(), variable_pointers.data());
        const int error = errno;
        [[maybe_unused]] const auto written = write(report[1], &error, sizeof(error));
        _exit(127);
    }
    close(report[1]);
    const TerminalSignalsIgnored ignored;
    int exec_error = 0;
    ssize_t got = 0;
    do {
        got = read(report[0], &exec_error, sizeof(exec_error));
    } while (got < 0 && errno == EINTR);
    close(report[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            throw ProfileError(std::string("cannot wait for '") + argv.front() +
                               "': " + std::strerror(errno));
        }
    }
    if (got == static_cast<ssize_t>(sizeof(exec_error))) {
        throw ProfileError(start_failure(argv.front(), exec_error));
    }
    if (WIFSIGNALED(status)) return {true, WTERMSIG(status)};
    return {false, WIFEXITED(status) ? WEXITSTATUS(status) : 0};
}

std::string describe(const ProgramExit& exit) {
    if (!exit.signaled) return "exited with status " + std::to_string(exit.code);
    const char* name = strsignal(exit.code);
    return "was killed by signal " + std::to_string(exit.code) +
           (name != nullptr ? " (" + std::string(name) + ")" : std::string());
}

}  // namespace optiml::profile
