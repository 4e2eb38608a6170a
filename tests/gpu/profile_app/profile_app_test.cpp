// `optiml profile -- ./hot_and_cold` on a real CUDA program built with nvcc (hot_and_cold.cu).
// Without a GPU the program finds no device and the error must say what to check; on a GPU
// (label `gpu`) the kernels, their launch counts and geometry, and the hot set must be found.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "driver/profile/app_profile_command.h"
#include "tests/gpu/gpu_present.h"

namespace optiml::profile {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kProgram = OPTIML_TEST_HOT_AND_COLD;

using optiml::test_support::gpu_present;

TEST(ProfileAppWithoutGpu, TheProgramFindsNoDeviceAndTheErrorSaysWhatToCheck) {
    if (gpu_present()) GTEST_SKIP() << "a GPU is present: ProfileAppOnGpu covers this machine";
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(run_profile_app_command({kProgram}, {}, out, err), 1);
    EXPECT_EQ(err.str(), "optiml: error: '" + kProgram +
                             "' exited with status 2 and no CUDA kernels were recorded: is it a "
                             "CUDA program, and does it run on a GPU here? (`optiml devices` "
                             "lists this machine's GPUs); its own output above says why it "
                             "failed\n");
    EXPECT_THAT(out.str(), Not(HasSubstr("Kernels by GPU time")));
}

TEST(ProfileAppOnGpu, FindsEveryKernelAndTheHotSet) {
    if (!gpu_present()) GTEST_SKIP() << "no CUDA GPU on this machine";
    const fs::path json_file =
        fs::temp_directory_path() / ("optiml-hot-and-cold-" + std::to_string(getpid()) + ".json");
    std::ostringstream out;
    std::ostringstream err;
    ASSERT_EQ(run_profile_app_command({kProgram}, json_file, out, err), 0) << err.str();
    std::cout << out.str();  // the report, for whoever runs this on a GPU

    EXPECT_THAT(out.str(),
                HasSubstr("optiml_optimize_kernel(hot_and_cold SPEC kernels/stencil.optiml.json)\n"
                          "optiml_optimize_kernel(hot_and_cold SPEC kernels/reduce.optiml.json)\n"
                          "```"));
    EXPECT_THAT(out.str(), Not(HasSubstr("kernels/scale.optiml.json")));

    std::ifstream stream(json_file);
    const nlohmann::json report = nlohmann::json::parse(stream);
    fs::remove(json_file);
    EXPECT_EQ(report["exit_status"], 0);
    EXPECT_EQ(report["processes"], 1);
    EXPECT_EQ(report["incomplete_launches"], 0);
    EXPECT_EQ(report["dropped_records"], 0);
    EXPECT_EQ(report["hot_count"], 2);  // stencil 60% alone is below 80%; with reduce 90%
    const nlohmann::json& kernels = report["kernels"];
    ASSERT_EQ(kernels.size(), 3u) << kernels.dump(2);
    EXPECT_EQ(kernels[0]["demangled_name"], "void app::stencil<4>(long long, unsigned long long*)");
    EXPECT_EQ(kernels[0]["short_name"], "stencil");
    EXPECT_EQ(kernels[0]["launches"], 3);
    EXPECT_EQ(kernels[0]["block"], nlohmann::json::array({32, 1, 1}));
    EXPECT_EQ(kernels[0]["hot"], true);
    EXPECT_EQ(kernels[1]["name"], "_Z6reducexPy");
    EXPECT_EQ(kernels[1]["demangled_name"], "reduce(long long, unsigned long long*)");
    EXPECT_EQ(kernels[1]["launches"], 3);
    EXPECT_EQ(kernels[1]["grid"], nlohmann::json::array({2, 1, 1}));
    EXPECT_EQ(kernels[1]["hot"], true);
    EXPECT_EQ(kernels[2]["name"], "scale");  // extern "C": recorded unmangled
    EXPECT_EQ(kernels[2]["demangled_name"], "");
    EXPECT_EQ(kernels[2]["launches"], 1);
    EXPECT_EQ(kernels[2]["grid"], nlohmann::json::array({4, 1, 1}));
    EXPECT_EQ(kernels[2]["hot"], false);
}

}  // namespace
}  // namespace optiml::profile
