// The whole-program runner on real processes: programs that fail, crash or never use CUDA; the
// real liboptiml-activity.so loaded the way the CUDA driver loads it; and constructed records
// written by several processes (test_programs.h), aggregated into one report.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "driver/profile/app_capture.h"
#include "driver/profile/app_profile.h"
#include "driver/profile/profile_error.h"
#include "driver/profile/run_program.h"
#include "tests/unit/profile/test_programs.h"

namespace optiml::profile {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const fs::path kLibrary = OPTIML_TEST_ACTIVITY_LIBRARY;

std::string shell_error(const std::vector<std::string>& argv) {
    try {
        run_program(argv, {});
    } catch (const ProfileError& e) {
        return e.what();
    }
    return "(no error)";
}

class AppProfileTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("optiml-app-profile-test-" + std::to_string(getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    AppProfile profile(const std::vector<std::string>& program) {
        return profile_app(program, kLibrary, dir_);
    }
    fs::path dir_;
};

TEST(RunProgram, ReturnsTheExitStatus) {
    const ProgramExit exit = run_program({"sh", "-c", "exit 3"}, {});
    EXPECT_FALSE(exit.signaled);
    EXPECT_EQ(exit.code, 3);
    EXPECT_EQ(describe(exit), "exited with status 3");
}

TEST(RunProgram, ReportsTheSignalThatEndedTheProgram) {
    const ProgramExit exit = run_program({"sh", "-c", "kill -SEGV $$"}, {});
    EXPECT_TRUE(exit.signaled);
    EXPECT_EQ(exit.code, SIGSEGV);
    EXPECT_EQ(describe(exit), "was killed by signal 11 (Segmentation fault)");
}

TEST(RunProgram, TheGivenVariablesReplaceTheDriversOwn) {
    ASSERT_EQ(setenv("OPTIML_RUN_PROGRAM_TEST", "driver's", 1), 0);
    const std::vector<std::string> check = {"sh", "-c",
                                            R"(test "$OPTIML_RUN_PROGRAM_TEST" = given)"};
    EXPECT_EQ(run_program(check, {}).code, 1);
    EXPECT_EQ(run_program(check, {{"OPTIML_RUN_PROGRAM_TEST", "given"}}).code, 0);
    unsetenv("OPTIML_RUN_PROGRAM_TEST");
}

TEST(RunProgram, AMissingProgramIsNamedWithTheFix) {
    EXPECT_EQ(shell_error({"./no-such-program", "--flag"}),
              "cannot run './no-such-program': No such file or directory; check the path (a "
              "program in the current directory needs './'), or that the program is on PATH");
    EXPECT_THAT(shell_error({"no-such-program-on-path"}), HasSubstr("on PATH"));
    EXPECT_EQ(shell_error({}),
              "no program to run: name it after `--`, e.g. `optiml profile -- ./app`");
}

TEST_F(AppProfileTest, AFileThatIsNotExecutableIsNamedWithTheFix) {
    const fs::path script = dir_ / "app.sh";
    std::ofstream(script) << "#!/bin/sh\n";
    EXPECT_EQ(shell_error({script.string()}),
              "cannot run '" + script.string() +
                  "': Permission denied; it must be an executable file (chmod +x)");
}

TEST_F(AppProfileTest, RecordsOfEveryProcessAreAggregatedPerKernel) {
    const std::vector<std::string> writer = testing::records_writer("program");
    const std::string both =
        "\"$0\" " + writer[1] + " program && \"$0\" " + writer[1] + " other-process";
    const AppProfile result = profile({"sh", "-c", both, writer[0]});
    EXPECT_EQ(profile_problem(result), "");
    EXPECT_EQ(result.processes, 2u);
    EXPECT_EQ(result.incomplete_launches, 1u);  // the gemm launch without an end time
    EXPECT_EQ(result.launches.size(), 20u);     // 19 in "program", 1 in "other-process"
    EXPECT_EQ(result.devices, (std::vector<std::uint32_t>{0, 1}));
    const analysis::HotKernelReport& report = result.report;
    EXPECT_EQ(report.total_ns, 2'550'000u);
    ASSERT_EQ(report.kernels.size(), 4u);
    EXPECT_EQ(report.kernels[0].name, "_Z4gemmPKfS0_Pfi");
    EXPECT_EQ(report.kernels[0].demangled_name, "gemm(float const*, float const*, float*, int)");
    EXPECT_EQ(report.kernels[0].launches, 4u);  // 3 + 1 from the other process
    EXPECT_EQ(report.kernels[0].total_ns, 2'000'000u);
    EXPECT_EQ(report.kernels[0].grid, (analysis::Dim3{64, 64, 1}));
    EXPECT_EQ(report.kernels[1].short_name, "softmax");
    EXPECT_EQ(report.kernels[1].launches, 10u);
    EXPECT_EQ(report.hot_count, 2u);  // gemm 78.4%, with softmax 94.1%
    EXPECT_TRUE(report.kernels[1].hot);
    EXPECT_FALSE(report.kernels[2].hot);
}

TEST_F(AppProfileTest, TheRealLibraryIsLoadedAndWritesItsFileAtExit) {
    // No GPU is used: the library runs its setup and exit handler, and records no kernel.
    const AppProfile result = profile({testing::self().string(), testing::kActAsCudaDriver});
    EXPECT_EQ(result.exit.code, 0);
    EXPECT_EQ(result.processes, 1u);  // its file was found under its own pid
    EXPECT_TRUE(result.launches.empty());
    EXPECT_THAT(profile_problem(result), ::testing::StartsWith("no CUDA kernels were recorded: "));
}

TEST_F(AppProfileTest, TheRealLibraryCapturesToo) {
    // No GPU and no CUDA driver in the process: the capture half says so in its own file.
    const AppCapture result =
        capture_app({testing::self().string(), testing::kActAsCudaDriver}, kLibrary, dir_,
                    /*snapshots=*/true);
    EXPECT_EQ(result.profile.processes, 1u);
    EXPECT_TRUE(result.launches.empty());
    ASSERT_EQ(result.capture_errors.size(), 1u);
    EXPECT_THAT(result.capture_errors[0],
                ::testing::MatchesRegex("pid [0-9]+: the CUDA driver \\(libcuda.so.1\\) is not "
                                        "loaded in this process"));
    EXPECT_TRUE(fs::is_directory(dir_ / "snapshots"));
    // The program's problem comes first: it launched no kernel.
    EXPECT_EQ(capture_problem(result), profile_problem(result.profile));
}

TEST_F(AppProfileTest, KernelsThatRanButWereNotCapturedAreAProblem) {
    AppCapture capture;
    capture.profile.processes = 1;
    capture.profile.launches.push_back({"_Z1kv", "k()", 10, {1, 1, 1}, {1, 1, 1}});
    capture.capture_errors.push_back("pid 9: cuptiSubscribe failed: busy (39)");
    EXPECT_EQ(capture_problem(capture),
              "kernels ran but no launch was captured (pid 9: cuptiSubscribe failed: busy (39))");
}

TEST_F(AppProfileTest, AProgramThatNeverInitializesCudaLoadsNoLibrary) {
    const AppProfile result = profile({"true"});
    EXPECT_EQ(result.processes, 0u);
    const std::string library = fs::absolute(kLibrary).string();
    EXPECT_EQ(profile_problem(result),
              "no CUDA kernels were recorded: the profiling library never ran in 'true'. Either "
              "the program never initialized CUDA (is it a CUDA program, and does it run on a "
              "GPU here? (`optiml devices` lists this machine's GPUs)), or the CUDA driver could "
              "not load " +
                  library + " (`ldd " + library + "` shows what it lacks)");
}

TEST_F(AppProfileTest, AFailingProgramWithoutKernelsAsksAboutTheGpu) {
    const AppProfile result = profile({"sh", "-c", "exit 2"});
    EXPECT_EQ(profile_problem(result),
              "'sh' exited with status 2 and no CUDA kernels were recorded: is it a CUDA "
              "program, and does it run on a GPU here? (`optiml devices` lists this machine's "
              "GPUs); its own output above says why it failed");
}

TEST_F(AppProfileTest, AProgramThatFailsAfterItsKernelsIsStillAnError) {
    const std::vector<std::string> writer = testing::records_writer("program");
    const AppProfile result =
        profile({"sh", "-c", "\"$0\" " + writer[1] + " program; exit 1", writer[0]});
    EXPECT_EQ(result.launches.size(), 19u);
    EXPECT_EQ(profile_problem(result),
              "'sh' exited with status 1 after 19 kernel launches; profile a run that succeeds "
              "(its output above says why it failed)");
}

TEST_F(AppProfileTest, ACrashIsNamedBySignal) {
    const AppProfile result = profile({"sh", "-c", "kill -SEGV $$"});
    EXPECT_EQ(profile_problem(result),
              "'sh' was killed by signal 11 (Segmentation fault); fix the crash (its output is "
              "above) and profile a run that completes");
}

TEST_F(AppProfileTest, RecordsOfAnEarlierRunAreNotCounted) {
    std::ofstream(dir_ / "activity-1.json") << "left over";
    const AppProfile result = profile({"true"});
    EXPECT_EQ(result.processes, 0u);
}

TEST_F(AppProfileTest, AnUnreadableRecordFileIsNamed) {
    const std::string corrupt =
        R"(printf '{' > "$(dirname "$OPTIML_ACTIVITY_OUTPUT")/activity-7.json")";
    try {
        profile({"sh", "-c", corrupt});
        ADD_FAILURE() << "a corrupt record file was accepted";
    } catch (const ProfileError& e) {
        EXPECT_THAT(e.what(), HasSubstr("activity-7.json: not valid JSON"));
    }
}

TEST_F(AppProfileTest, AMissingLibraryIsNamed) {
    try {
        profile_app({"true"}, dir_ / "liboptiml-activity.so", dir_);
        ADD_FAILURE() << "a missing library was accepted";
    } catch (const ProfileError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "the profiling library " + (dir_ / "liboptiml-activity.so").string() +
                      " does not exist; reinstall OptiML or set OPTIML_ACTIVITY_LIBRARY to "
                      "liboptiml-activity.so");
    }
}

TEST(ActivityLibrary, CandidatesAreBesideTheProgramThenInItsLibFolderThenThisBuild) {
    const auto candidates = activity_library_candidates("/opt/optiml/bin");
    ASSERT_GE(candidates.size(), 3u);
    EXPECT_EQ(candidates[0], fs::path("/opt/optiml/bin/liboptiml-activity.so"));
    EXPECT_EQ(candidates[1], fs::path("/opt/optiml/lib/liboptiml-activity.so"));
    EXPECT_EQ(candidates.back(), kLibrary);
}

TEST(ActivityLibrary, FoundInThisBuildAndOverriddenByTheEnvironment) {
    unsetenv("OPTIML_ACTIVITY_LIBRARY");
    EXPECT_EQ(find_activity_library(), kLibrary);  // the test is not beside it: the build path

    const fs::path other = fs::temp_directory_path() /
                           ("optiml-test-other-activity-" + std::to_string(getpid()) + ".so");
    std::ofstream(other) << "";
    ASSERT_EQ(setenv("OPTIML_ACTIVITY_LIBRARY", other.c_str(), 1), 0);
    EXPECT_EQ(find_activity_library(), other);
    fs::remove(other);
    try {
        find_activity_library();
        ADD_FAILURE() << "a missing OPTIML_ACTIVITY_LIBRARY was accepted";
    } catch (const ProfileError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "OPTIML_ACTIVITY_LIBRARY is set to " + other.string() +
                      ", which is not a file; point it at liboptiml-activity.so or unset it");
    }
    unsetenv("OPTIML_ACTIVITY_LIBRARY");
}

}  // namespace
}  // namespace optiml::profile
