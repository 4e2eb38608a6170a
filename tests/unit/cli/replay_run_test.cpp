// `optiml tune --replay`: the report of a strategy replayed on a recording, and its errors.
#include "driver/cli/replay_run.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "driver/cli/commands.h"

namespace optiml::cli {
namespace {
namespace fs = std::filesystem;

const fs::path kFixture =
    fs::path(OPTIML_SOURCE_DIR) / "tests/unit/search/data/optiml_recording.json";
const fs::path kKernelTunerFixture =
    fs::path(OPTIML_SOURCE_DIR) / "tests/unit/search/data/kernel_tuner_cache.json";

// Every field that is not given keeps its default.
ReplayOptions replay_options(fs::path recording, std::string strategy, int evaluations,
                             std::uint64_t seed,
                             std::size_t in_flight = search::kMaxStreamingDepth) {
    ReplayOptions options;
    options.recording = std::move(recording);
    options.strategy = std::move(strategy);
    options.evaluations = evaluations;
    options.seed = seed;
    options.in_flight = in_flight;
    return options;
}

struct CommandLine {
    int status = 0;
    std::string out, err;
};

// `optiml tune <arguments>` as main runs it: CLI11's parse, its refusals reported as main does.
CommandLine optiml_tune(std::vector<std::string> arguments) {
    CLI::App app;
    add_tune_command(app);
    arguments.insert(arguments.begin(), {"optiml", "tune"});
    std::vector<const char*> argv;
    for (const std::string& a : arguments) argv.push_back(a.c_str());
    CommandLine result;
    std::ostringstream out;
    std::ostringstream err;
    exit_status() = 0;
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
        result.status = exit_status();
    } catch (const CLI::ParseError& e) {
        result.status = report_parse_error(app, e, out, err);
    }
    result.out = testing::internal::GetCapturedStdout() + out.str();
    result.err = testing::internal::GetCapturedStderr() + err.str();
    return result;
}

TEST(ReplayRun, ReportsTheBestFoundAgainstTheRecordedOptimum) {
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(run_replay(replay_options(kFixture, "exhaustive", 10, 1), out, err), 0) << err.str();
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
    EXPECT_EQ(run_replay(replay_options(kFixture, "exhaustive", 10, 1), streamed, err), 0)
        << err.str();
    EXPECT_EQ(run_replay(replay_options(kFixture, "exhaustive", 10, 1, 0), batched, err), 0)
        << err.str();
    EXPECT_NE(
        streamed.str().find("3 evaluations (budget 10), streaming, 18 in flight; stopped: every "
                            "configuration was measured\n"),
        std::string::npos)
        << streamed.str();
    EXPECT_NE(batched.str().find("3 evaluations (budget 10), batches of 8; stopped: every "
                                 "configuration was measured\n"),
              std::string::npos)
        << batched.str();
    // The pipeline changes when results arrive, not what an exhaustive search finds.
    EXPECT_NE(batched.str().find("within 2% of the optimum after 2 evaluations"),
              std::string::npos);
}

TEST(ReplayRun, AutoSaysWhichStrategyItChose) {
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(run_replay(replay_options(kFixture, "auto", 10, 1), out, err), 0);
    EXPECT_NE(out.str().find("strategy exhaustive (chosen by auto)"), std::string::npos)
        << out.str();
}

TEST(ReplayRun, AMalformedRecordingIsAnErrorNamingTheField) {
    const fs::path file = fs::path(::testing::TempDir()) / "malformed_recording.json";
    std::ofstream(file) << R"({"tune_params_keys": ["x"], "cache": {"1": {"x": 1}}})";
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(run_replay(replay_options(file, "auto", 10, 1), out, err), 1);
    EXPECT_EQ(err.str(), "optiml: error: " + file.string() +
                             ": cache[\"1\"].time: missing; expected a number or a Kernel Tuner "
                             "error string\n");
}

TEST(ReplayRun, AnUnknownStrategyIsRefusedListingTheValidOnes) {
    const CommandLine refused =
        optiml_tune({"--replay", kFixture.string(), "--strategy", "dual_annealing"});
    EXPECT_EQ(refused.status, 2);
    EXPECT_EQ(refused.err,
              "optiml: error: --strategy: unknown search strategy \"dual_annealing\"; expected one "
              "of auto, exhaustive, random, greedy_ils, genetic, bayes, mcts\n");
    EXPECT_EQ(refused.out, "");

    // Kernel Tuner's name of a strategy OptiML has, given to the replay itself.
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(run_replay(replay_options(kFixture, "brute_force", 10, 1), out, err), 1);
    EXPECT_EQ(err.str(),
              "optiml: error: --strategy: unknown search strategy \"brute_force\" (Kernel Tuner's "
              "name for exhaustive); expected one of auto, exhaustive, random, greedy_ils, "
              "genetic, bayes, mcts\n");

    // Any other refused command line says so the same way; --help is no error.
    const CommandLine unknown = optiml_tune({"--replay", kFixture.string(), "--no-such-flag"});
    EXPECT_EQ(unknown.status, 2);
    EXPECT_EQ(unknown.err.rfind("optiml: error: ", 0), 0u) << unknown.err;
    const CommandLine help = optiml_tune({"--help"});
    EXPECT_EQ(help.status, 0);
    EXPECT_NE(help.out.find("--baseline"), std::string::npos) << help.out;
    EXPECT_EQ(help.err, "");
}

TEST(ReplayRun, SaysWhichConfigurationIsTheBaselineAndWhere) {
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(run_replay(replay_options(kFixture, "exhaustive", 10, 1), out, err), 0) << err.str();
    EXPECT_NE(
        out.str().find("\noptiml: baseline block=64 items=1: 3 ms (the recording's default)\n"),
        std::string::npos)
        << out.str();

    std::ostringstream first;
    EXPECT_EQ(run_replay(replay_options(kKernelTunerFixture, "exhaustive", 10, 1), first, err), 0)
        << err.str();
    EXPECT_NE(
        first.str().find("\noptiml: baseline block_size_x=16 layout=0 use_shared=0: 2 ms (the "
                         "recording names no default: its first configuration, parameters "
                         "sorted by name, each at its smallest recorded value first; "
                         "--baseline names another)\n"),
        std::string::npos)
        << first.str();

    const CommandLine named =
        optiml_tune({"--replay", kKernelTunerFixture.string(), "--strategy", "exhaustive",
                     "--baseline", "block_size_x=32,layout=col,use_shared=True"});
    EXPECT_EQ(named.status, 0) << named.err;
    EXPECT_NE(named.out.find("\noptiml: baseline block_size_x=32 layout=1 use_shared=1: 1 ms (from "
                             "--baseline)\n"),
              std::string::npos)
        << named.out;
}

TEST(ReplayRun, ABaselineTheRecordingLacksIsAnErrorNamingTheOption) {
    ReplayOptions options = replay_options(kFixture, "auto", 10, 1);
    options.baseline = "block=128,items=1";
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(run_replay(options, out, err), 1);
    EXPECT_EQ(err.str(), "optiml: error: --baseline: block=128 items=1 is not in " +
                             kFixture.string() + "; expected a recorded configuration\n");
    EXPECT_EQ(out.str().find("optiml: strategy"), std::string::npos) << "no search ran";

    const CommandLine without_replay = optiml_tune({"--baseline", "block=64,items=1"});
    EXPECT_EQ(without_replay.status, 2);
    EXPECT_EQ(without_replay.err, "optiml: error: --baseline requires --replay\n");
}

TEST(ReplayRun, TheDefaultBudgetIsAThousandEvaluations) {
    const CommandLine replay = optiml_tune({"--replay", kFixture.string(), "--strategy", "random"});
    EXPECT_EQ(replay.status, 0) << replay.err;
    EXPECT_NE(replay.out.find("3 evaluations (budget 1000)"), std::string::npos) << replay.out;
    const CommandLine budget = optiml_tune(
        {"--replay", kFixture.string(), "--strategy", "random", "--budget-evaluations", "2"});
    EXPECT_NE(budget.out.find("2 evaluations (budget 2)"), std::string::npos) << budget.out;
}

TEST(ReplayRun, WritesItsTraceAsJson) {
    const fs::path file = fs::path(::testing::TempDir()) / "replay_trace.json";
    fs::remove(file);
    const CommandLine replay = optiml_tune({"--replay", kFixture.string(), "--strategy",
                                            "exhaustive", "--seed", "4", "--trace", file.string()});
    EXPECT_EQ(replay.status, 0) << replay.err;
    EXPECT_NE(replay.out.find("\noptiml: trace written to " + file.string() + "\n"),
              std::string::npos)
        << replay.out;
    const auto trace = nlohmann::json::parse(std::ifstream(file));
    EXPECT_EQ(trace["format"], "optiml-replay-trace");
    EXPECT_EQ(trace["recording"]["file"], kFixture.string());
    EXPECT_EQ(trace["search"]["seed"], 4);
    EXPECT_EQ(trace["search"]["budget_evaluations"], 1000);
    EXPECT_EQ(trace["search"]["pipeline"], "streaming, 18 in flight");
    EXPECT_EQ(trace["baseline"]["source"], "recording");
    ASSERT_EQ(trace["evaluations"].size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(trace["evaluations"][i]["evaluation"], i + 1);
    EXPECT_EQ(trace["evaluations"][2]["status"], "mismatch");
    EXPECT_EQ(trace["evaluations"][2]["best_ms"], 2.0);
    EXPECT_EQ(trace["summary"]["evaluations_to_within_2_percent"], 2);
    EXPECT_EQ(trace["summary"]["best"]["time_ms"], 2.0);
    EXPECT_EQ(trace["summary"]["optimum_ms"], 2.0);

    const fs::path nowhere = fs::path(::testing::TempDir()) / "no_such_folder" / "trace.json";
    ReplayOptions options = replay_options(kFixture, "exhaustive", 10, 1);
    options.trace = nowhere;
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(run_replay(options, out, err), 1);
    EXPECT_EQ(err.str().rfind("optiml: error: --trace: ", 0), 0u) << err.str();
    EXPECT_NE(err.str().find(nowhere.string()), std::string::npos) << err.str();
}

TEST(ReplayRun, ACorruptGzippedRecordingIsAnErrorNamingTheFile) {
    const fs::path file = fs::path(::testing::TempDir()) / "corrupt.json.gz";
    std::ofstream(file, std::ios::binary) << "\x1f\x8b\x08\x00 this is no deflate data";
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(run_replay(replay_options(file, "auto", 10, 1), out, err), 1);
    EXPECT_EQ(
        err.str().rfind("optiml: error: " + file.string() + ": (file): corrupt gzip data (", 0), 0u)
        << err.str();
}

}  // namespace
}  // namespace optiml::cli
