// `optiml tune --replay`: the report of a strategy replayed on a recording, and its errors.
#include "driver/cli/replay_run.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace optiml::cli {
namespace {
namespace fs = std::filesystem;

const fs::path kFixture =
    fs::path(OPTIML_SOURCE_DIR) / "tests/unit/search/data/optiml_recording.json";

TEST(ReplayRun, ReportsTheBestFoundAgainstTheRecordedOptimum) {
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(run_replay({kFixture, "exhaustive", 10, 1}, out, err), 0) << err.str();
    const std::string text = out.str();
    EXPECT_NE(text.find("3 configurations recorded, 2 succeeded, 1 within 2% of the optimum"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("strategy exhaustive, seed 1, 3 evaluations (budget 10)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("best found 2 ms (block=64 items=2), recorded optimum 2 ms: ratio 1.0000"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("within 2% of the optimum after 2 evaluations"), std::string::npos) << text;
}

TEST(ReplayRun, StreamsAsTuneDoesUnlessAskedForBatches) {
    std::ostringstream streamed;
    std::ostringstream batched;
    std::ostringstream err;
    EXPECT_EQ(run_replay({kFixture, "exhaustive", 10, 1}, streamed, err), 0) << err.str();
    EXPECT_EQ(run_replay({kFixture, "exhaustive", 10, 1, 0}, batched, err), 0) << err.str();
    EXPECT_NE(streamed.str().find("3 evaluations (budget 10), streaming, 18 in flight\n"),
              std::string::npos)
        << streamed.str();
    EXPECT_NE(batched.str().find("3 evaluations (budget 10), batches of 8\n"), std::string::npos)
        << batched.str();
    // The pipeline changes when results arrive, not what an exhaustive search finds.
    EXPECT_NE(batched.str().find("within 2% of the optimum after 2 evaluations"),
              std::string::npos);
}

TEST(ReplayRun, AutoSaysWhichStrategyItChose) {
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(run_replay({kFixture, "auto", 10, 1}, out, err), 0);
    EXPECT_NE(out.str().find("strategy exhaustive (chosen by auto)"), std::string::npos)
        << out.str();
}

TEST(ReplayRun, AMalformedRecordingIsAnErrorNamingTheField) {
    const fs::path file = fs::path(::testing::TempDir()) / "malformed_recording.json";
    std::ofstream(file) << R"({"tune_params_keys": ["x"], "cache": {"1": {"x": 1}}})";
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(run_replay({file, "auto", 10, 1}, out, err), 1);
    EXPECT_EQ(err.str(), "optiml: error: " + file.string() +
                             ": cache[\"1\"].time: missing; expected a number or a Kernel Tuner "
                             "error string\n");
}

}  // namespace
}  // namespace optiml::cli
