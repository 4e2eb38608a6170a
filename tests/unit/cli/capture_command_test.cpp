// `optiml capture` through its CLI11 command, without a GPU: wrong options are rejected (status 2)
// with the fix before any program runs, and a program that never starts CUDA is reported.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "driver/cli/commands.h"

namespace optiml::cli {
namespace {

namespace fs = std::filesystem;

struct Result {
    int status = 0;
    std::string err;
};

Result run_capture(std::vector<std::string> arguments) {
    CLI::App app;
    add_capture_command(app);
    arguments.insert(arguments.begin(), "capture");
    std::vector<const char*> argv = {"optiml"};
    for (const std::string& a : arguments) argv.push_back(a.c_str());
    exit_status() = 0;
    std::ostringstream err;
    std::streambuf* const saved = std::cerr.rdbuf(err.rdbuf());
    app.parse(static_cast<int>(argv.size()), argv.data());
    std::cerr.rdbuf(saved);
    return {exit_status(), err.str()};
}

class CaptureCommandTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("optiml_capture_cli_" + std::to_string(getpid()));
        fs::create_directories(dir_);
        source_ = (dir_ / "kernels.cu").string();
        std::ofstream(source_) << "__global__ void k(float* x) { x[0] = 1; }\n";
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_;
    std::string source_;
};

TEST_F(CaptureCommandTest, AProgramIsNeeded) {
    const Result r = run_capture({"--source", source_});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "optiml: error: no program to capture: name it after `--`, e.g. `optiml capture "
              "--source kernels.cu -- ./app --size 1024`\n");
}

TEST_F(CaptureCommandTest, ASourceIsNeededAndMustExist) {
    Result r = run_capture({"--", "true"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "optiml: error: no kernel source given: name the files that define the kernels "
              "with --source <file.cu> (repeat it for several)\n");
    const std::string missing = (dir_ / "absent.cu").string();
    r = run_capture({"--source", source_, "--source", missing, "--", "true"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "optiml: error: --source " + missing +
                         ": no such file; name the .cu file that defines the kernel\n");
}

TEST_F(CaptureCommandTest, TheOutputFolderMustNotBeAFileAndTheLimitNotZero) {
    Result r = run_capture({"--source", source_, "--output-dir", source_, "--", "true"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "optiml: error: --output-dir " + source_ +
                         " is a file; name a folder (it is created if missing)\n");
    r = run_capture({"--source", source_, "--snapshot", "--snapshot-limit", "0", "--", "true"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "optiml: error: --snapshot-limit must be at least 1 (MiB)\n");
}

TEST_F(CaptureCommandTest, AProgramThatNeverStartsCudaIsReportedAndNothingIsWritten) {
    const fs::path out = dir_ / "specs";
    const Result r = run_capture({"--source", source_, "--output-dir", out.string(), "--", "true"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("optiml: error: no CUDA kernels were recorded: the profiling library "
                         "never ran in 'true'"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace optiml::cli
