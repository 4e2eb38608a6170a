// Reading recorded spaces (OptiML's, Kernel Tuner's cache files, T4 results) and replaying
// strategies against them. The fixtures under data/ are hand-written (data/README.md); the
// manifest is the matmul example's committed seed entry: real H200 measurements.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "driver/search/candidate_json.h"
#include "driver/search/recording_file.h"
#include "driver/search/strategy.h"

namespace optiml::search {
namespace {
namespace fs = std::filesystem;

fs::path data(const std::string& name) {
    return fs::path(OPTIML_SOURCE_DIR) / "tests/unit/search/data" / name;
}

fs::path matmul_manifest() {
    for (const auto& entry : fs::recursive_directory_iterator(
             fs::path(OPTIML_SOURCE_DIR) / "examples/matmul/optiml-seed/entries"))
        if (entry.path().filename() == "manifest.json") return entry.path();
    return {};
}

// Writes `text` to a file of its own and returns the reader's error message.
std::string error_reading(const std::string& text) {
    // One file per test: ctest runs the tests that call this in parallel processes.
    const fs::path file =
        fs::path(::testing::TempDir()) /
        ("bad_recording_" +
         std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".json");
    std::ofstream(file) << text;
    try {
        read_recording(file);
    } catch (const RecordingError& e) {
        const std::string message = e.what();
        return message.substr(file.string().size());  // without the file name
    }
    return "accepted";
}

TEST(Recording, ReadsAManifestTrace) {
    const Recording recording = read_recording(matmul_manifest());
    const auto manifest = nlohmann::json::parse(std::ifstream(matmul_manifest()));
    EXPECT_EQ(recording.format, "optiml-manifest");
    EXPECT_EQ(recording.records.size(), manifest["trace"].size());
    EXPECT_EQ(recording.space.defaults, manifest["default_parameters"].get<Config>());
    EXPECT_EQ(recording.space.names.size(), 6u);
    ASSERT_TRUE(recording.optimum_ms());
    EXPECT_DOUBLE_EQ(*recording.optimum_ms(), manifest["time_ms"]["median"].get<double>());
    EXPECT_EQ(recording.space.enumerate_valid().size(), recording.records.size());
}

TEST(Recording, ReadsAKernelTunerCacheFile) {
    const Recording recording = read_recording(data("kernel_tuner_cache.json"));
    EXPECT_EQ(recording.format, "kernel-tuner-cache");
    EXPECT_EQ(recording.kernel, "fixture_kernel");
    ASSERT_EQ(recording.records.size(), 5u);
    // Booleans become 0/1, strings their index in tune_params.
    const Outcome& fast =
        recording.records.at({{"block_size_x", 32}, {"use_shared", 1}, {"layout", 1}});
    EXPECT_TRUE(fast.ok);
    EXPECT_DOUBLE_EQ(fast.median_ms, 1.0);
    EXPECT_DOUBLE_EQ(fast.min_ms, 0.9);
    EXPECT_DOUBLE_EQ(fast.max_ms, 1.3);
    EXPECT_EQ(fast.runs, 3);
    const Outcome& failed =
        recording.records.at({{"block_size_x", 32}, {"use_shared", 0}, {"layout", 1}});
    EXPECT_FALSE(failed.ok);
    EXPECT_EQ(failed.status, "CompilationFailedConfig");
    EXPECT_EQ(recording.successes(), 3u);
    // No defaults in the format: the first recorded configuration in enumeration order.
    EXPECT_EQ(recording.space.defaults,
              (Config{{"block_size_x", 16}, {"use_shared", 0}, {"layout", 0}}));
}

TEST(Recording, ReadsT4Results) {
    const Recording recording = read_recording(data("t4_results.json"));
    EXPECT_EQ(recording.format, "t4-results");
    ASSERT_EQ(recording.records.size(), 3u);
    EXPECT_DOUBLE_EQ(recording.records.at({{"block_size_x", 64}, {"tile", 1}}).median_ms, 3.0)
        << "seconds are converted to ms";
    EXPECT_EQ(recording.records.at({{"block_size_x", 128}, {"tile", 1}}).status, "compile");
    EXPECT_DOUBLE_EQ(recording.records.at({{"block_size_x", 128}, {"tile", 2}}).median_ms, 2.5)
        << "without a measurement, the median of times.runtimes";
}

TEST(Recording, ReadsAnOptiMLRecording) {
    const Recording recording = read_recording(data("optiml_recording.json"));
    EXPECT_EQ(recording.format, "optiml-recording");
    EXPECT_EQ(recording.space.values, (std::vector<std::vector<std::int64_t>>{{64, 128}, {1, 2}}));
    EXPECT_EQ(recording.records.size(), 3u);
    EXPECT_EQ(recording.within(1.02), 1u);
    EXPECT_FALSE(recording.space.is_valid({{"block", 128}, {"items", 1}})) << "not recorded";
    EXPECT_TRUE(recording.space.is_valid({{"block", 128}, {"items", 2}})) << "recorded, failed";
}

TEST(Recording, MalformedFilesNameTheField) {
    const std::string kt_head =
        R"({"tune_params_keys": ["x"], "tune_params": {"x": [1, 2]}, "cache": {"1": )";
    EXPECT_EQ(error_reading(kt_head + R"({"x": 1, "time": true}}})"),
              ": cache[\"1\"].time: got true; expected a number or a Kernel Tuner error string");
    EXPECT_EQ(
        error_reading(kt_head + R"({"x": 1, "time": "Oops"}}})"),
        ": cache[\"1\"].time: got \"Oops\"; expected a number or a Kernel Tuner error string");
    EXPECT_EQ(error_reading(kt_head + R"({"time": 1.0}}})"),
              ": cache[\"1\"].x: missing; expected the value of parameter x");
    EXPECT_EQ(error_reading(R"({"format": "optiml-recording", "version": 2})"),
              ": version: got 2; expected 1 (the only version so far)");
    EXPECT_EQ(error_reading(
                  R"({"format": "optiml-recording", "version": 1, "space": {"names": ["a"],
                      "values": [[1]], "defaults": {"a": 1}}, "records": [{"parameters": {"a": 1},
                      "status": "ok", "time_ms": {"median": "fast"}}]})"),
              ": records[0].time_ms.median: got \"fast\"; expected the median time in ms");
    EXPECT_EQ(error_reading(
                  R"({"format": "optiml-recording", "version": 1, "space": {"names": ["a"],
                      "values": [[1, 2]], "defaults": {"a": 1}}, "records": [{"parameters":
                      {"a": 3}, "status": "compile_error"}]})"),
              ": records[0].parameters.a: got 3; expected one of space.values[0]");
    EXPECT_EQ(error_reading(R"({"results": [{"configuration": {"a": 1}}]})"),
              ": results[0].invalidity: missing; expected an object with configuration, "
              "invalidity and measurements");
    EXPECT_EQ(error_reading(R"({"something": 1})"),
              ": (file): not a recording; expected an OptiML recording (\"format\": "
              "\"optiml-recording\"), a cache entry manifest (with \"trace\"), a Kernel Tuner "
              "cache file (with \"tune_params_keys\" and \"cache\") or T4 results (with "
              "\"schema_version\" and \"results\")");
}

// Found by fuzzing (tests/fuzz/replay_kernel_tuner_fuzz.cpp, replay_t4_fuzz.cpp): each of these
// files ended the process (a nlohmann exception, an empty vector indexed, or an enumeration of
// the 30^8 configurations the records span) instead of one error naming the file and the field.
TEST(Recording, MalformedFilesFoundByFuzzingNameTheField) {
    EXPECT_EQ(
        error_reading(R"({"tune_params_keys": ["x"], "cache": {"1": {"x": 1e309}}})").substr(0, 27),
        ": (file): not JSON ([json.e")
        << "a number out of range is not a syntax error, but is no JSON of ours either";
    EXPECT_EQ(error_reading(R"({"tune_params_keys": ["x"], "cache": {}})"),
              ": cache: got an empty object; expected measured configurations");
    EXPECT_EQ(error_reading(R"({"tune_params_keys": ["x", "x"], "cache": {"1": {"x": 1}}})"),
              ": tune_params_keys[1]: got \"x\"; expected a parameter name not given before");
    EXPECT_EQ(error_reading(R"({"kernel_name": 5, "tune_params_keys": ["x"],
                                "cache": {"1": {"x": 1, "time": 1.0}}})"),
              ": kernel_name: got 5; expected the kernel's name");
    EXPECT_EQ(error_reading(R"({"tune_params_keys": ["x"],
                                "cache": {"1": {"x": 18446744073709551615, "time": 1.0}}})"),
              ": cache[\"1\"].x: got 18446744073709551615; expected an integer within 64 bits");
    EXPECT_EQ(error_reading(R"({"results": [{"configuration": {"a": 1}, "invalidity": "correct",
                                "measurements": [{"name": 3, "value": 1}]}]})"),
              ": results[0].measurements[0].name: got 3; expected the measurement's name");
    EXPECT_EQ(error_reading(R"({"results": [{"configuration": {"a": 1}, "invalidity": "correct",
                                "measurements": [{"name": "time", "value": 1, "unit": 3}]}]})"),
              ": results[0].measurements[0].unit: got 3; expected \"ms\", \"s\", \"us\" or \"\" "
              "(ms)");
    EXPECT_EQ(error_reading(R"({"format": "optiml-recording", "version": 1, "kernel": 1,
                                "space": {"names": [], "values": [], "defaults": {}},
                                "records": []})"),
              ": kernel: got 1; expected the kernel's name");
    EXPECT_EQ(error_reading(R"({"default_parameters": {"a": 1}, "device": {"name": 7},
                                "trace": [{"parameters": {"a": 1}, "status": "ok",
                                           "time_ms": {"median": 1}}]})"),
              ": device.name: got 7; expected the device's name");

    // A derived candidate's row (left out) has no parameters to check against the space.
    const fs::path file = fs::path(::testing::TempDir()) / "derived_row.json";
    std::ofstream(file) << R"({"format": "optiml-recording", "version": 1,
        "space": {"names": ["a"], "values": [[1]], "defaults": {"a": 1}},
        "records": [{"source_id": "x"}, {"parameters": {"a": 1}, "status": "compile_error"}]})";
    EXPECT_EQ(read_recording(file).records.size(), 1u);

    // Defaults without enumerating the space: 30 records of 8 parameters, each with its own
    // values, span 30^8 configurations; the first record in enumeration order is the default.
    nlohmann::json cache = nlohmann::json::object();
    std::vector<std::string> names;
    for (int p = 0; p < 8; ++p) names.push_back("p" + std::to_string(p));
    for (int r = 0; r < 30; ++r) {
        nlohmann::json entry = {{"time", 1.0 + r}};
        for (int p = 0; p < 8; ++p) entry[names[static_cast<std::size_t>(p)]] = 100 - 3 * r + p;
        cache[std::to_string(r)] = entry;
    }
    const fs::path wide = fs::path(::testing::TempDir()) / "wide_space.json";
    std::ofstream(wide) << nlohmann::json{{"tune_params_keys", names}, {"cache", cache}}.dump();
    const Recording recording = read_recording(wide);
    EXPECT_EQ(recording.records.size(), 30u);
    EXPECT_EQ(recording.space.defaults.at("p0"), 100 - 3 * 29);
    EXPECT_EQ(recording.space.defaults.at("p7"), 100 - 3 * 29 + 7);
}

TEST(Replay, AConfigurationOutsideTheRecordingFailsAsNotRecorded) {
    const Recording recording = read_recording(data("optiml_recording.json"));
    ReplayEvaluator evaluator(recording);
    const Config recorded{{"block", 64}, {"items", 2}};
    const auto outcomes =
        evaluator.evaluate({Candidate{recorded}, Candidate{{{"block", 128}, {"items", 1}}},
                            Candidate{recorded, "3fa2", {"unroll"}, {}},
                            Candidate{recorded, "", {}, {"--use_fast_math"}}});
    EXPECT_TRUE(outcomes[0].ok);
    EXPECT_DOUBLE_EQ(outcomes[0].median_ms, 2.0);
    EXPECT_FALSE(outcomes[1].ok);
    EXPECT_EQ(outcomes[1].status, "not_recorded");
    // The recording measured the original source with the spec's options only.
    EXPECT_EQ(outcomes[2].status, "not_recorded");
    EXPECT_EQ(outcomes[3].status, "not_recorded");
}

// Rows of derived candidates in a manifest's trace are not points of the parameter space: they
// are left out of a replay; the candidate mapping reads and writes every field.
TEST(Replay, DerivedCandidatesInATraceAreLeftOutAndTheirFieldsRoundTrip) {
    nlohmann::json manifest = nlohmann::json::parse(std::ifstream(matmul_manifest()));
    const std::size_t rows = read_recording(matmul_manifest()).records.size();
    nlohmann::json derived = manifest["trace"][0];
    const Candidate candidate{
        derived["parameters"].get<Config>(), "3fa2c1b0", {"unroll 4"}, {"-maxrregcount=64"}};
    write_candidate(candidate, derived);
    derived["time_ms"]["median"] = 0.001;  // would be the optimum if it were read
    manifest["trace"].push_back(derived);
    const fs::path file = fs::path(::testing::TempDir()) / "derived_manifest.json";
    std::ofstream(file) << manifest.dump();
    const Recording recording = read_recording(file);
    EXPECT_EQ(recording.records.size(), rows);
    EXPECT_GT(recording.optimum_ms(), 0.001);
    EXPECT_EQ(read_candidate(derived), candidate);
    nlohmann::json original_row;
    write_candidate(Candidate{candidate.parameters}, original_row);
    EXPECT_EQ(original_row.size(), 1u) << "an original candidate writes only its parameters";
    EXPECT_EQ(read_candidate(original_row), Candidate{candidate.parameters});
}

// Every strategy, replayed on the real matmul space, proposes only recorded configurations and
// (exhaustive) finds the recorded optimum.
TEST(Replay, EveryStrategyStaysInsideTheRecording) {
    const Recording recording = read_recording(matmul_manifest());
    for (const std::string& name : strategy_names()) {
        ReplayEvaluator evaluator(recording);
        const Result result = run_search(recording.space, evaluator, {60, 1e9, name}, {}, 5);
        EXPECT_EQ(result.trace.size(), 60u) << name;
        for (const auto& item : result.trace)
            EXPECT_NE(item.outcome.status, "not_recorded") << name;
    }
    ReplayEvaluator evaluator(recording);
    const Result all = run_search(recording.space, evaluator, {1000, 1e9, "exhaustive"});
    EXPECT_DOUBLE_EQ(best_after(all, all.trace.size()), *recording.optimum_ms());
    EXPECT_LE(*evaluations_until(all, *recording.optimum_ms()), all.trace.size());
}

// Streaming, the replay keeps what tune's pipeline keeps in flight and answers in the order
// submitted; the search through it stays inside the recording and measures each once.
TEST(Replay, StreamsInTheOrderSubmitted) {
    const Recording recording = read_recording(matmul_manifest());
    ReplayEvaluator batches(recording);
    EXPECT_EQ(batches.streaming_depth(), 0u);
    EXPECT_THROW(batches.submit(Candidate{recording.space.defaults}), std::logic_error);

    ReplayEvaluator streaming(recording, 5);
    EXPECT_EQ(streaming.streaming_depth(), 5u);
    const auto configs = recording.space.enumerate_valid();
    streaming.submit(Candidate{configs[3]});
    streaming.submit(Candidate{configs[1]});
    const auto first = streaming.collect();
    ASSERT_TRUE(first);
    EXPECT_EQ(first->first.parameters, configs[3]);
    EXPECT_EQ(first->second.median_ms, recording.records.at(configs[3]).median_ms);
    EXPECT_EQ(streaming.collect()->first.parameters, configs[1]);
    EXPECT_FALSE(streaming.collect());

    ReplayEvaluator evaluator(recording, 18);
    const Result result = run_search(recording.space, evaluator, {100, 1e9, "auto"}, {}, 2);
    EXPECT_EQ(result.trace.size(), 100u);
    std::set<Config> unique;
    for (const auto& item : result.trace) {
        EXPECT_NE(item.outcome.status, "not_recorded");
        unique.insert(item.candidate.parameters);
    }
    EXPECT_EQ(unique.size(), 100u);
}

TEST(Replay, CountsEvaluationsUntilWithinATarget) {
    Result result;
    for (const double ms : {5.0, 4.0, 6.0, 2.0}) {
        Outcome o;
        o.ok = true;
        o.median_ms = ms;
        result.trace.push_back({{}, o, 0.0});
    }
    EXPECT_EQ(evaluations_until(result, 4.0), 2u);
    EXPECT_EQ(evaluations_until(result, 2.0), 4u);
    EXPECT_FALSE(evaluations_until(result, 1.0));
    EXPECT_DOUBLE_EQ(best_after(result, 3), 4.0);
}

}  // namespace
}  // namespace optiml::search
