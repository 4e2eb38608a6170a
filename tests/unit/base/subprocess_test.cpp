// The process runner (driver/base/subprocess.h, run_process.h) on real children: one that writes,
// one that exits non-zero or is killed by a signal, one that hangs and is killed with what it
// started, a missing program, and the pipes another child must not hold.
#include "driver/base/subprocess.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "driver/base/read_file.h"
#include "driver/base/run_process.h"

namespace optiml::base {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Stream = SpawnOptions::Stream;

SpawnOptions shell(const std::string& script) {
    SpawnOptions options;
    options.arguments = {"sh", "-c", script};
    return options;
}

// A shell on two pipes, as the worker runs.
SpawnOptions piped(const std::string& script) {
    SpawnOptions options = shell(script);
    options.input = Stream::Pipe;
    options.output = Stream::Pipe;
    return options;
}

std::chrono::steady_clock::time_point in(std::chrono::milliseconds delay) {
    return std::chrono::steady_clock::now() + delay;
}

// All the child wrote to its stdout, up to its end of file.
std::string read_all(Subprocess& process) {
    std::string text;
    while (process.read_output(text, in(10s)) == Subprocess::Read::Data) {
    }
    return text;
}

// Whether the process `pid` has ended (gone, or a zombie nobody reaps yet), within two seconds.
bool ended(pid_t pid) {
    for (int i = 0; i < 200; ++i) {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string line;
        if (!std::getline(stat, line)) return true;
        const auto state = line.rfind(')');
        if (state != std::string::npos && line.substr(state + 2, 1) == "Z") return true;
        std::this_thread::sleep_for(10ms);
    }
    return false;
}

TEST(Subprocess, ReadsWhatTheChildWritesAndItsExitStatus) {
    SpawnOptions options = shell("echo hello; echo world; exit 0");
    options.output = Stream::Pipe;
    Subprocess process;
    ASSERT_FALSE(process.start(options).has_value());
    EXPECT_TRUE(process.running());
    EXPECT_EQ(read_all(process), "hello\nworld\n");
    const ExitStatus exit = process.wait();
    EXPECT_FALSE(exit.signaled);
    EXPECT_EQ(exit.code, 0);
    EXPECT_EQ(exit.wait_error, 0);
    EXPECT_FALSE(process.running());
}

TEST(Subprocess, ANonZeroExitIsItsStatus) {
    SpawnOptions options = shell("exit 3");
    Subprocess process;
    ASSERT_FALSE(process.start(options).has_value());
    const ExitStatus exit = process.wait();
    EXPECT_FALSE(exit.signaled);
    EXPECT_EQ(exit.code, 3);
}

TEST(Subprocess, AChildKilledByASignalSaysWhichSignal) {
    Subprocess process;
    ASSERT_FALSE(process.start(shell("kill -SEGV $$")).has_value());
    const ExitStatus exit = process.wait();
    EXPECT_TRUE(exit.signaled);
    EXPECT_EQ(exit.code, SIGSEGV);
}

TEST(Subprocess, AnswersOnItsStdinPipe) {
    Subprocess process;
    ASSERT_FALSE(process.start(piped("read line; echo \"got $line\"")).has_value());
    ASSERT_TRUE(process.write_input("request\n"));
    EXPECT_EQ(read_all(process), "got request\n");
    EXPECT_EQ(process.wait().code, 0);
}

// A child that never answers: the deadline ends the read, and kill() ends the child and what it
// started in its process group.
// Starts a shell (its own process group, stdout piped, and `input`) that starts a sleeper, says
// the sleeper's pid and waits for it: the pid of the sleeper.
pid_t start_shell_with_sleeper(Subprocess& process, Stream input) {
    SpawnOptions options = shell("sleep 30 & echo $!; wait");
    options.input = input;
    options.output = Stream::Pipe;
    options.own_process_group = true;
    EXPECT_FALSE(process.start(options).has_value());
    std::string text;
    while (text.find('\n') == std::string::npos)
        if (process.read_output(text, in(10s)) != Subprocess::Read::Data) return -1;
    return std::stoi(text);
}

TEST(Subprocess, AHangTimesOutAndIsKilledWithWhatItStarted) {
    Subprocess process;
    const pid_t sleeper = start_shell_with_sleeper(process, Stream::Inherit);
    ASSERT_GT(sleeper, 0);
    const pid_t shell_pid = process.pid();
    std::string text;
    const auto before = std::chrono::steady_clock::now();
    EXPECT_EQ(process.read_output(text, in(200ms)), Subprocess::Read::TimedOut);
    EXPECT_GE(std::chrono::steady_clock::now() - before, 190ms);
    process.kill();
    EXPECT_FALSE(process.running());
    EXPECT_TRUE(ended(shell_pid));
    EXPECT_TRUE(ended(sleeper)) << "the group's other process survived";
}

// finish(): the end of its input lets a child end its own way (the worker's GPU teardown, a
// sanitizer's report); one that ignores it is killed once the grace is over, with what it started.
TEST(Subprocess, FinishLetsAChildEndByItselfOnEndOfInput) {
    const fs::path marker = fs::temp_directory_path() / ("finish-" + std::to_string(getpid()));
    fs::remove(marker);
    Subprocess process;
    ASSERT_FALSE(
        process.start(piped("cat >/dev/null; echo after-input > " + marker.string())).has_value());
    ASSERT_TRUE(process.write_input("a request\n"));
    EXPECT_TRUE(process.finish(10s));
    EXPECT_FALSE(process.running());
    EXPECT_EQ(read_file(marker), "after-input\n") << "the child did not run to its own end";
    fs::remove(marker);
}

TEST(Subprocess, FinishKillsAChildThatIgnoresTheEndOfInputWithWhatItStarted) {
    Subprocess process;
    const pid_t sleeper = start_shell_with_sleeper(process, Stream::Pipe);
    ASSERT_GT(sleeper, 0);
    const pid_t shell_pid = process.pid();
    EXPECT_FALSE(process.finish(100ms));
    EXPECT_FALSE(process.running());
    EXPECT_TRUE(ended(shell_pid));
    EXPECT_TRUE(ended(sleeper)) << "the group's other process survived";
}

// A child's death reads as an end of file, not as a hang, while another child started after it
// runs: that one does not hold the first one's pipe ends.
TEST(Subprocess, ADeathIsAnEndOfFileWhileAnotherChildRuns) {
    Subprocess dying;
    ASSERT_FALSE(dying.start(piped("read line; exit 7")).has_value());
    SpawnOptions second = piped("sleep 30");
    second.own_process_group = true;
    Subprocess lasting;
    ASSERT_FALSE(lasting.start(second).has_value());
    ASSERT_TRUE(dying.write_input("go\n"));
    std::string text;
    EXPECT_EQ(dying.read_output(text, in(10s)), Subprocess::Read::End);
    EXPECT_EQ(dying.wait().code, 7);
    EXPECT_TRUE(lasting.running());
}

TEST(Subprocess, WritingToAChildThatDiedFailsWithoutKillingTheDriver) {
    SpawnOptions options = shell("exit 0");
    options.input = Stream::Pipe;
    Subprocess process;
    ASSERT_FALSE(process.start(options).has_value());
    process.wait();
    EXPECT_FALSE(process.write_input(std::string(1 << 20, 'x')));
}

TEST(Subprocess, AMissingProgramFailsToStartWithItsError) {
    SpawnOptions options;
    options.arguments = {"optiml-no-such-program-anywhere"};
    Subprocess process;
    const std::optional<SpawnFailure> failure = process.start(options);
    ASSERT_TRUE(failure.has_value());
    EXPECT_EQ(failure->step, SpawnFailure::Step::Exec);
    EXPECT_EQ(failure->error, ENOENT);
    EXPECT_FALSE(process.running());
}

// Run by its path (no PATH search, no /bin/sh fallback): a file without the execute permission,
// and an executable text that is no program.
TEST(Subprocess, AFileThatIsNoProgramFailsToStart) {
    const fs::path file =
        fs::temp_directory_path() / ("optiml-subprocess-not-a-program-" + std::to_string(getpid()));
    std::ofstream(file) << "not a program\n";
    SpawnOptions options;
    options.arguments = {file.string()};
    options.search_path = false;
    const auto error_of = [&] {
        Subprocess process;
        const std::optional<SpawnFailure> failure = process.start(options);
        EXPECT_FALSE(process.running());
        return failure ? std::optional<int>(failure->error) : std::nullopt;
    };
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
    EXPECT_EQ(error_of(), EACCES);
    fs::permissions(file, fs::perms::owner_all);
    EXPECT_EQ(error_of(), ENOEXEC);
    fs::remove(file);
}

TEST(Subprocess, TheGivenVariablesReplaceTheDriversOwn) {
    ASSERT_EQ(setenv("OPTIML_SUBPROCESS_TEST", "driver's", 1), 0);
    SpawnOptions options = shell("echo \"$OPTIML_SUBPROCESS_TEST $OPTIML_SUBPROCESS_ADDED\"");
    options.output = Stream::Pipe;
    options.environment = {{"OPTIML_SUBPROCESS_TEST", "given"}, {"OPTIML_SUBPROCESS_ADDED", "new"}};
    Subprocess process;
    ASSERT_FALSE(process.start(options).has_value());
    EXPECT_EQ(read_all(process), "given new\n");
    process.wait();
    unsetenv("OPTIML_SUBPROCESS_TEST");
}

TEST(Subprocess, StderrToDevNull) {
    SpawnOptions options = shell("echo out; echo err >&2");
    options.output = Stream::Pipe;
    options.errors = Stream::Null;
    Subprocess process;
    ASSERT_FALSE(process.start(options).has_value());
    EXPECT_EQ(read_all(process), "out\n");
    process.wait();
}

TEST(Subprocess, BothStreamsInOneLogFile) {
    const fs::path log =
        fs::temp_directory_path() / ("optiml-subprocess-test-" + std::to_string(getpid()) + ".log");
    SpawnOptions options = shell("echo one; echo two >&2; echo three");
    options.output = Stream::LogFile;
    options.errors = Stream::LogFile;
    options.log_file = log;
    Subprocess process;
    ASSERT_FALSE(process.start(options).has_value());
    EXPECT_EQ(process.wait().code, 0);
    EXPECT_EQ(read_file(log), "one\ntwo\nthree\n");
    fs::remove(log);
}

// The terminal's Ctrl-C is the foreground child's alone: the driver ignores SIGINT while the
// child runs, and has its own handling back after.
TEST(Subprocess, AForegroundChildsInterruptLeavesTheDriverStanding) {
    struct sigaction before {};
    sigaction(SIGINT, nullptr, &before);
    SpawnOptions options = shell("kill -INT $PPID; kill -INT $$");
    options.foreground = true;
    Subprocess process;
    ASSERT_FALSE(process.start(options).has_value());
    const ExitStatus exit = process.wait();
    EXPECT_TRUE(exit.signaled);  // the child keeps the default action
    EXPECT_EQ(exit.code, SIGINT);
    struct sigaction after {};
    sigaction(SIGINT, nullptr, &after);
    EXPECT_EQ(after.sa_handler, before.sa_handler);
}

TEST(RunProcess, CapturesOutputAndExitCode) {
    const fs::path log = fs::temp_directory_path() /
                         ("optiml-run-process-test-" + std::to_string(getpid()) + ".log");
    const ProcessResult result =
        run_process({"sh", "-c", "echo said; echo warned >&2; exit 2"}, log);
    EXPECT_TRUE(result.started);
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_FALSE(result.ok());
    EXPECT_EQ(result.log, "said\nwarned\n");
    EXPECT_FALSE(fs::exists(log));  // removed after reading
    EXPECT_TRUE(run_process({"true"}, log).ok());
}

TEST(RunProcess, AMissingProgramIsNotStarted) {
    const fs::path log = fs::temp_directory_path() /
                         ("optiml-run-process-missing-" + std::to_string(getpid()) + ".log");
    const ProcessResult result = run_process({"optiml-no-such-program-anywhere"}, log);
    EXPECT_FALSE(result.started);
    EXPECT_EQ(result.log,
              "cannot run 'optiml-no-such-program-anywhere': No such file or directory");
    fs::remove(log);
}

TEST(RunProcess, ASignalIsExitCodeMinusOne) {
    const fs::path log = fs::temp_directory_path() /
                         ("optiml-run-process-signal-" + std::to_string(getpid()) + ".log");
    const ProcessResult result = run_process({"sh", "-c", "kill -KILL $$"}, log);
    EXPECT_TRUE(result.started);
    EXPECT_EQ(result.exit_code, -1);
}

TEST(CommandLine, JoinsTheArgumentsBySpaces) {
    EXPECT_EQ(command_line({"nvcc", "-c", "k.cu"}), "nvcc -c k.cu");
    EXPECT_EQ(command_line({}), "");
}

}  // namespace
}  // namespace optiml::base
