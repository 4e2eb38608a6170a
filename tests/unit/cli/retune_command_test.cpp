// `optiml retune --publish` through its CLI11 command: what publishing needs (a signing key, a
// remote) is checked before any kernel is retuned, each missing piece named with its fix.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "cache/signature.h"
#include "driver/base/scratch_dir.h"
#include "driver/cli/commands.h"

namespace optiml::cli {
namespace {

namespace fs = std::filesystem;

int run_retune(std::vector<std::string> arguments, std::string& errors) {
    CLI::App app;
    add_retune_command(app);
    arguments.insert(arguments.begin(), "retune");
    std::vector<const char*> argv = {"optiml"};
    for (const std::string& a : arguments) argv.push_back(a.c_str());
    exit_status() = 0;
    testing::internal::CaptureStdout();  // run_retune reports its errors with the report
    testing::internal::CaptureStderr();
    app.parse(static_cast<int>(argv.size()), argv.data());
    errors = testing::internal::GetCapturedStderr() + testing::internal::GetCapturedStdout();
    return exit_status();
}

class RetuneCommandTest : public testing::Test {
  protected:
    void SetUp() override {
        ::unsetenv("OPTIML_SIGNING_KEY");
        ::unsetenv("OPTIML_REMOTE_CACHE");
        ::unsetenv("OPTIML_REMOTE_CACHE_MODE");
    }
    void TearDown() override { ::unsetenv("OPTIML_SIGNING_KEY"); }
    // A folder without a build manifest: a retune that gets past --publish's checks fails on it.
    base::ScratchDir scratch_;
    const std::string build_dir_ = scratch_.path().string();
    const std::string key_ =
        (cache::write_key_pair(scratch_.path() / "keys", "runner", "test").parent_path() /
         "runner.pem")
            .string();
};

TEST_F(RetuneCommandTest, PublishWithoutASigningKeyStopsBeforeRetuning) {
    std::string errors;
    EXPECT_EQ(run_retune({"--build-dir", build_dir_, "--publish", "--remote-cache",
                          "http://127.0.0.1:9/optiml"},
                         errors),
              1);
    EXPECT_NE(errors.find("optiml: error: --publish: OPTIML_SIGNING_KEY is not set"),
              std::string::npos)
        << errors;
    EXPECT_NE(errors.find("optiml cache keygen"), std::string::npos) << errors;
    EXPECT_EQ(errors.find("build manifest"), std::string::npos) << errors;  // never got there
}

TEST_F(RetuneCommandTest, PublishWithoutARemoteSaysHowToNameOne) {
    ::setenv("OPTIML_SIGNING_KEY", key_.c_str(), 1);
    std::string errors;
    EXPECT_EQ(run_retune({"--build-dir", build_dir_, "--publish"}, errors), 1);
    EXPECT_NE(errors.find("no remote cache: pass --remote-cache <url> or set OPTIML_REMOTE_CACHE"),
              std::string::npos)
        << errors;
    EXPECT_EQ(errors.find("build manifest"), std::string::npos) << errors;
}

TEST_F(RetuneCommandTest, PublishWithAKeyAndARemoteGoesOnToTheRetune) {
    ::setenv("OPTIML_SIGNING_KEY", key_.c_str(), 1);
    ::setenv("OPTIML_REMOTE_CACHE", "http://127.0.0.1:9/optiml", 1);
    std::string errors;
    EXPECT_EQ(run_retune({"--build-dir", build_dir_, "--publish"}, errors), 1);
    EXPECT_EQ(errors.find("--publish"), std::string::npos) << errors;
    EXPECT_NE(errors.find("optiml-kernels: no such folder"), std::string::npos) << errors;
    ::unsetenv("OPTIML_REMOTE_CACHE");
}

TEST_F(RetuneCommandTest, APublishFlagWithoutAUrlOrKeyIsNotNeededForAPlainRetune) {
    std::string errors;
    EXPECT_EQ(run_retune({"--build-dir", build_dir_}, errors), 1);
    EXPECT_EQ(errors.find("OPTIML_SIGNING_KEY"), std::string::npos) << errors;
    EXPECT_NE(errors.find("optiml-kernels: no such folder"), std::string::npos) << errors;
}

}  // namespace
}  // namespace optiml::cli
