#include "driver/base/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <thread>

extern char** environ;

namespace optiml::base {
namespace {

// The driver's environment with `overrides` set: an inherited entry of an overridden name is
// dropped, the overrides follow in their order.
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

void close_if_open(int& fd) {
    if (fd >= 0) close(fd);
    fd = -1;
}

// In the child: `fd` becomes `target`, open across exec (dup2 clears close-on-exec; a descriptor
// that already is the target keeps its flag unless cleared here).
void move_to(int fd, int target) {
    if (fd == target)
        fcntl(fd, F_SETFD, 0);
    else
        dup2(fd, target);
}

pid_t wait_for(pid_t pid, int& status) {
    pid_t got = -1;
    do {
        got = waitpid(pid, &status, 0);
    } while (got < 0 && errno == EINTR);
    return got;
}

}  // namespace

// SIGINT and SIGQUIT ignored while it lives; the previous actions restored after.
struct Subprocess::SignalsIgnored {
    SignalsIgnored() {
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        sigemptyset(&ignore.sa_mask);
        sigaction(SIGINT, &ignore, &interrupt);
        sigaction(SIGQUIT, &ignore, &quit);
    }
    ~SignalsIgnored() { restore(); }
    // Also in the forked child before exec (async-signal-safe): the child keeps the driver's
    // previous actions, not the ignoring.
    void restore() const {
        sigaction(SIGINT, &interrupt, nullptr);
        sigaction(SIGQUIT, &quit, nullptr);
    }
    SignalsIgnored(const SignalsIgnored&) = delete;
    SignalsIgnored& operator=(const SignalsIgnored&) = delete;

    struct sigaction interrupt {};
    struct sigaction quit {};
};

Subprocess::Subprocess() = default;

Subprocess::~Subprocess() {
    kill();
}

std::optional<SpawnFailure> Subprocess::start(const SpawnOptions& options) {
    using Stream = SpawnOptions::Stream;
    if (options.arguments.empty()) return SpawnFailure{SpawnFailure::Step::Exec, ENOENT};
    std::vector<std::string> arguments = options.arguments;
    std::vector<std::string> variables = environment_with(options.environment);
    std::vector<char*> argument_pointers = pointers_to(arguments);
    std::vector<char*> variable_pointers = pointers_to(variables);

    // Every descriptor the driver makes is close-on-exec (see the header); move_to clears the
    // flag on the child's own standard streams.
    int in[2] = {-1, -1};
    int out[2] = {-1, -1};
    int report[2] = {-1,
                     -1};  // the child writes errno here if exec fails; exec closes it otherwise
    int log = -1;
    const auto close_all = [&] {
        for (int* fd : {&in[0], &in[1], &out[0], &out[1], &report[0], &report[1], &log})
            close_if_open(*fd);
    };
    if ((options.input == Stream::Pipe && pipe2(in, O_CLOEXEC) != 0) ||
        (options.output == Stream::Pipe && pipe2(out, O_CLOEXEC) != 0) ||
        pipe2(report, O_CLOEXEC) != 0) {
        const int error = errno;
        close_all();
        return SpawnFailure{SpawnFailure::Step::Pipe, error};
    }
    if (options.output == Stream::LogFile) {
        log = open(options.log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (log < 0) {
            const int error = errno;
            close_all();
            return SpawnFailure{SpawnFailure::Step::LogFile, error};
        }
    }

    // Ignored before the fork: a child that signals the driver at once (its first instruction)
    // must find the driver already ignoring.
    if (options.foreground) foreground_ = std::make_unique<SignalsIgnored>();
    const pid_t child = fork();
    if (child < 0) {
        const int error = errno;
        close_all();
        foreground_.reset();
        return SpawnFailure{SpawnFailure::Step::Fork, error};
    }
    if (child == 0) {
        // Only async-signal-safe calls from here: the driver has other threads.
        if (foreground_) foreground_->restore();
        if (options.own_process_group) setpgid(0, 0);
        if (options.input == Stream::Pipe) move_to(in[0], STDIN_FILENO);
        if (options.output == Stream::Pipe) move_to(out[1], STDOUT_FILENO);
        if (options.output == Stream::LogFile) move_to(log, STDOUT_FILENO);
        if (options.errors == Stream::Null) {
            const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
            if (null >= 0) move_to(null, STDERR_FILENO);
        } else if (options.errors == Stream::LogFile && options.output == Stream::LogFile) {
            dup2(STDOUT_FILENO, STDERR_FILENO);
        }
        if (options.search_path)
            execvpe(argument_pointers[0], argument_pointers.data(), variable_pointers.data());
        else
            execve(argument_pointers[0], argument_pointers.data(), variable_pointers.data());
        const int error = errno;
        [[maybe_unused]] const auto written = write(report[1], &error, sizeof(error));
        _exit(127);
    }
    pid_ = child;
    own_process_group_ = options.own_process_group;
    // Also here: whichever of parent and child runs first sets the group.
    if (options.own_process_group) setpgid(child, child);
    close_if_open(in[0]);
    close_if_open(out[1]);
    close_if_open(log);
    close_if_open(report[1]);
    int exec_error = 0;
    ssize_t got = 0;
    do {
        got = read(report[0], &exec_error, sizeof(exec_error));
    } while (got < 0 && errno == EINTR);
    close_if_open(report[0]);
    input_ = in[1];
    output_ = out[0];
    if (got == static_cast<ssize_t>(sizeof(exec_error))) {
        close_pipes();
        int status = 0;
        wait_for(pid_, status);
        pid_ = -1;
        foreground_.reset();
        return SpawnFailure{SpawnFailure::Step::Exec, exec_error};
    }
    if (options.input == Stream::Pipe) signal(SIGPIPE, SIG_IGN);
    return std::nullopt;
}

bool Subprocess::write_input(std::string_view data) {
    while (!data.empty()) {
        const ssize_t written = write(input_, data.data(), data.size());
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return false;
        data.remove_prefix(static_cast<std::size_t>(written));
    }
    return true;
}

Subprocess::Read Subprocess::read_output(std::string& into,
                                         std::chrono::steady_clock::time_point deadline) {
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return Read::TimedOut;
        pollfd fd{output_, POLLIN, 0};
        const auto wait_ms = std::min<long long>(left.count(), INT_MAX);
        if (poll(&fd, 1, static_cast<int>(wait_ms)) <= 0) continue;
        char chunk[65536];
        const ssize_t n = read(output_, chunk, sizeof(chunk));
        if (n <= 0) return Read::End;
        into.append(chunk, static_cast<std::size_t>(n));
        return Read::Data;
    }
}

ExitStatus Subprocess::wait() {
    ExitStatus exit;
    if (pid_ <= 0) {
        exit.wait_error = ECHILD;
        return exit;
    }
    int status = 0;
    if (wait_for(pid_, status) < 0) {
        exit.wait_error = errno;
    } else if (WIFSIGNALED(status)) {
        exit.signaled = true;
        exit.code = WTERMSIG(status);
    } else if (WIFEXITED(status)) {
        exit.code = WEXITSTATUS(status);
    }
    pid_ = -1;
    foreground_.reset();
    return exit;
}

void Subprocess::kill() {
    close_pipes();
    if (pid_ > 0) {
        if (own_process_group_) ::kill(-pid_, SIGKILL);
        ::kill(pid_, SIGKILL);
        int status = 0;
        wait_for(pid_, status);
    }
    pid_ = -1;
    foreground_.reset();
}

bool Subprocess::finish(std::chrono::milliseconds grace) {
    close_if_open(input_);
    const auto deadline = std::chrono::steady_clock::now() + grace;
    bool exited = false;
    while (pid_ > 0 && !exited) {
        int status = 0;
        const pid_t got = waitpid(pid_, &status, WNOHANG);
        if (got == pid_) {
            exited = true;
            // Reaped: kill() then only ends what it left running in its process group.
            if (own_process_group_) ::kill(-pid_, SIGKILL);
            pid_ = -1;
        } else if (got < 0 && errno != EINTR) {
            break;
        } else if (std::chrono::steady_clock::now() >= deadline) {
            break;
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
    kill();
    return exited;
}

void Subprocess::close_pipes() {
    close_if_open(input_);
    close_if_open(output_);
}

}  // namespace optiml::base
