// `optiml profile -- <program>` as the CLI runs it: the report, the JSON file, and the errors.
// The profiled programs write constructed records (test_programs.h) or fail.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "driver/profile/app_profile_command.h"
#include "tests/unit/profile/test_programs.h"

namespace optiml::profile {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

struct Outcome {
    int status = 0;
    std::string out;
    std::string err;
};

Outcome run(const std::vector<std::string>& argv, const fs::path& json_out = {}) {
    std::ostringstream out;
    std::ostringstream err;
    const int status = run_profile_app_command(argv, json_out, out, err);
    return {status, out.str(), err.str()};
}

TEST(ProfileAppCommand, PrintsKernelsByTimeAndALineForEachHotKernel) {
    const fs::path json_file = fs::temp_directory_path() /
                               ("optiml-profile-command-" + std::to_string(getpid()) + ".json");
    const std::vector<std::string> program = testing::records_writer("program");
    const Outcome outcome = run(program, json_file);
    ASSERT_EQ(outcome.status, 0) << outcome.err;

    // gemm 1.5 ms (73.2%) + softmax 0.4 ms (19.5%) hold more than 80%; relu, copy do not.
    EXPECT_THAT(outcome.out, HasSubstr("| 1 | `gemm(float const*, float const*, float*, int)` |"));
    EXPECT_THAT(outcome.out,
                HasSubstr("| 2 | `void nn::softmax<float, 128>(float const*, float*, int)` |"));
    EXPECT_THAT(outcome.out, HasSubstr("| 3 | `relu_kernel` |"));  // extern "C": as recorded
    EXPECT_THAT(outcome.out, HasSubstr("| 4 | `copy(float const*, float*, int)` |"));
    const std::string target = fs::path(program[0]).filename().string();
    EXPECT_THAT(outcome.out, HasSubstr("optiml_optimize_kernel(" + target +
                                       " SPEC kernels/gemm.optiml.json)\n"
                                       "optiml_optimize_kernel(" +
                                       target + " SPEC kernels/softmax.optiml.json)\n```"));
    EXPECT_THAT(outcome.out, Not(HasSubstr("kernels/relu_kernel.optiml.json")));
    EXPECT_THAT(outcome.err, HasSubstr("optiml: warning: 1 kernel launches were still running"));

    std::ifstream stream(json_file);
    const nlohmann::json json = nlohmann::json::parse(stream);
    fs::remove(json_file);
    EXPECT_EQ(json["schema"], 1);
    EXPECT_EQ(json["program"], program);
    EXPECT_EQ(json["exit_status"], 0);
    EXPECT_EQ(json["processes"], 1);
    EXPECT_EQ(json["hot_count"], 2);
    EXPECT_EQ(json["incomplete_launches"], 1);
    ASSERT_EQ(json["kernels"].size(), 4u);
    EXPECT_EQ(json["kernels"][0]["short_name"], "gemm");
    EXPECT_EQ(json["kernels"][0]["total_ns"], 1'500'000);
    EXPECT_EQ(json["kernels"][0]["grid"], nlohmann::json::array({64, 64, 1}));
    EXPECT_EQ(json["kernels"][0]["hot"], true);
    EXPECT_EQ(json["kernels"][1]["suggestion"],
              "optiml_optimize_kernel(" + target + " SPEC kernels/softmax.optiml.json)");
    EXPECT_EQ(json["kernels"][2]["hot"], false);
    EXPECT_EQ(json["kernels"][2]["suggestion"], "");
}

TEST(ProfileAppCommand, WithoutAProgramItSaysHowToNameOne) {
    const Outcome outcome = run({});
    EXPECT_EQ(outcome.status, 2);
    EXPECT_EQ(outcome.err,
              "optiml: error: no program to profile: name it after `--`, e.g. "
              "`optiml profile -- ./app --size 1024`\n");
}

TEST(ProfileAppCommand, AMissingProgramIsAnError) {
    const Outcome outcome = run({"./no-such-app"});
    EXPECT_EQ(outcome.status, 1);
    EXPECT_THAT(outcome.err, HasSubstr("optiml: error: cannot run './no-such-app'"));
}

TEST(ProfileAppCommand, AFailingProgramIsAnErrorAndPrintsNoTable) {
    const Outcome outcome = run({"sh", "-c", "exit 2"});
    EXPECT_EQ(outcome.status, 1);
    EXPECT_THAT(outcome.err, HasSubstr("optiml: error: 'sh' exited with status 2 and no CUDA "
                                       "kernels were recorded"));
    EXPECT_THAT(outcome.out, Not(HasSubstr("Kernels by GPU time")));
}

TEST(ProfileAppCommand, AnUnwritableJsonPathIsNamed) {
    const fs::path json_file = "/nonexistent-folder/profile.json";
    const Outcome outcome = run(testing::records_writer("program"), json_file);
    EXPECT_EQ(outcome.status, 1);
    EXPECT_THAT(outcome.err,
                HasSubstr("cannot create a temporary file for /nonexistent-folder/profile.json: No "
                          "such file or directory"));
    EXPECT_THAT(outcome.err, HasSubstr("choose a writable --json path"));
}

}  // namespace
}  // namespace optiml::profile
