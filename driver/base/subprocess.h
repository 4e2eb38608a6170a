// One child process: started with fork and exec (its argv, the driver's environment plus given
// variables), its standard streams inherited, piped to the driver, sent to /dev/null or to a log
// file; read with a deadline, waited for, killed with whatever it started. The process runner
// every room uses: run_process (a compiler, its output in a log), profile's run_program (a user's
// program in the foreground) and measure's WorkerProcess (a worker on two pipes) are built on it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace optiml::base {

struct SpawnOptions {
    std::vector<std::string> arguments;  // arguments[0] is the program
    // arguments[0] looked up on PATH when it has no '/' (execvpe, which also runs a file without
    // a #! line through /bin/sh); false: arguments[0] is the path itself (execve).
    bool search_path = true;
    // Set in the child over the driver's environment (an inherited variable of the same name is
    // dropped), in this order.
    std::vector<std::pair<std::string, std::string>> environment;

    enum class Stream {
        Inherit,  // the driver's own
        Pipe,     // a pipe to the driver (stdin: write_input; stdout: read_output)
        Null,     // /dev/null
        LogFile,  // stdout: `log_file`, created or truncated; stderr: the same file, interleaved
    };
    Stream input = Stream::Inherit;   // Inherit or Pipe
    Stream output = Stream::Inherit;  // Inherit, Pipe or LogFile
    Stream errors = Stream::Inherit;  // Inherit, Null, or LogFile (with output LogFile)
    std::filesystem::path log_file;

    // The child leads a process group of its own, so that kill() ends what it started too.
    bool own_process_group = false;
    // The terminal's Ctrl-C and Ctrl-\ are for the child alone: the driver ignores SIGINT and
    // SIGQUIT from the fork until wait() or kill() (as system() does); the child keeps them.
    bool foreground = false;
};

// Why start() failed: the call that did, and its errno. Nothing is left running.
struct SpawnFailure {
    enum class Step {
        Pipe,     // creating a pipe
        LogFile,  // opening the log file
        Fork,     // creating the process
        Exec,     // executing the program (not found, not executable, not a program)
    };
    Step step = Step::Exec;
    int error = 0;
};

struct ExitStatus {
    bool signaled = false;  // killed by a signal rather than exiting
    int code = 0;           // the exit status, or the signal number when signaled
    int wait_error = 0;     // non-zero: waiting failed with this errno, and code means nothing
};

class Subprocess {
  public:
    Subprocess();
    ~Subprocess();  // kill()
    Subprocess(const Subprocess&) = delete;
    Subprocess& operator=(const Subprocess&) = delete;

    // Starts the child and returns once it has executed its program (or failed to). The driver's
    // own pipe ends are close-on-exec: a child started meanwhile by another thread does not hold
    // them, so this child's death reads as an end of file. With input Pipe, SIGPIPE is ignored in
    // the driver from then on: writing to a child that died is an error, not the driver's death.
    // Call on a Subprocess that runs nothing.
    std::optional<SpawnFailure> start(const SpawnOptions& options);

    bool running() const { return pid_ > 0; }
    pid_t pid() const { return pid_; }

    // The whole of `data` to the child's stdin (input Pipe); false when it could not be written
    // (the child closed its stdin or died).
    bool write_input(std::string_view data);

    enum class Read { Data, End, TimedOut };
    // Appends what the child wrote to its stdout (output Pipe) to `into`: Data when something
    // came, End at end of file or a read error (the child closed its stdout or died), TimedOut
    // when nothing came before `deadline`.
    Read read_output(std::string& into, std::chrono::steady_clock::time_point deadline);

    // Waits for the child to end and reaps it; the pipes stay open.
    ExitStatus wait();
    // Closes the pipes, and ends a child still running (SIGKILL, to its process group too when
    // it leads one) and reaps it.
    void kill();

    // The polite end: closes the child's stdin and gives it `grace` to exit by itself (a worker
    // then tears its GPU context down, and a tool wrapping it, such as compute-sanitizer, writes
    // its report), then kill(). True when it exited within the grace.
    bool finish(std::chrono::milliseconds grace);

  private:
    struct SignalsIgnored;
    void close_pipes();

    pid_t pid_ = -1;
    bool own_process_group_ = false;
    int input_ = -1;
    int output_ = -1;
    std::unique_ptr<SignalsIgnored> foreground_;
};

}  // namespace optiml::base
