// Recordings as their authors publish them (issue 28): gzipped files, T4 files with an empty
// unit, the same space in another parameter order (the same run for the same seed), a baseline
// named on the command line, and a replay's trace as JSON.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "driver/search/recording_file.h"
#include "driver/search/replay_trace.h"
#include "driver/search/strategy.h"

namespace optiml::search {
namespace {
namespace fs = std::filesystem;

fs::path temp(const std::string& name) {
    return fs::path(::testing::TempDir()) / name;
}

fs::path data(const std::string& name) {
    return fs::path(OPTIML_SOURCE_DIR) / "tests/unit/search/data" / name;
}

std::string text_of(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Writes `parts` as one gzip member each (several: as `cat a.gz b.gz` makes them).
void write_gzip(const fs::path& file, const std::vector<std::string>& parts) {
    fs::remove(file);
    for (const std::string& part : parts) {
        gzFile out = gzopen(file.c_str(), "ab");
        ASSERT_NE(out, nullptr);
        ASSERT_EQ(gzwrite(out, part.data(), static_cast<unsigned>(part.size())),
                  static_cast<int>(part.size()));
        ASSERT_EQ(gzclose(out), Z_OK);
    }
}

void write_text(const fs::path& file, const std::string& text) {
    std::ofstream(file, std::ios::binary) << text;
}

std::string error_reading(const fs::path& file) {
    try {
        read_recording(file);
    } catch (const RecordingError& e) {
        return e.what();
    }
    return "accepted";
}

TEST(PublishedRecording, AGzippedKernelTunerCacheReadsAsThePlainFile) {
    const std::string plain = text_of(data("kernel_tuner_cache.json"));
    const fs::path gz = temp("kernel_tuner_cache.json.gz");
    write_gzip(gz, {plain});
    const Recording zipped = read_recording(gz);
    const Recording unzipped = read_recording(data("kernel_tuner_cache.json"));
    EXPECT_EQ(zipped.format, "kernel-tuner-cache");
    EXPECT_EQ(zipped.file, gz.string());
    EXPECT_EQ(zipped.records.size(), unzipped.records.size());
    EXPECT_EQ(zipped.space.names, unzipped.space.names);
    EXPECT_EQ(zipped.space.defaults, unzipped.space.defaults);
    EXPECT_EQ(zipped.optimum_ms(), unzipped.optimum_ms());

    // Recognized by its first bytes, whatever the name; a file of several gzip members (as
    // `cat a.gz b.gz` makes) is their contents one after another, as gunzip writes them.
    const fs::path unnamed = temp("kernel_tuner_cache_in_parts.json");
    write_gzip(unnamed, {plain.substr(0, 100), plain.substr(100)});
    EXPECT_EQ(read_recording(unnamed).records.size(), unzipped.records.size());
    // A .gz name over plain JSON (a download that was inflated on the way) is read as it is.
    const fs::path inflated = temp("inflated_on_download.json.gz");
    write_text(inflated, plain);
    EXPECT_EQ(read_recording(inflated).records.size(), unzipped.records.size());
}

TEST(PublishedRecording, AGzippedManifestReadsAsThePlainFile) {
    const fs::path plain =
        fs::path(OPTIML_SOURCE_DIR) / "tests/data/h200/spaces/matmul.manifest.json";
    const fs::path gz = temp("matmul.manifest.json.gz");
    write_gzip(gz, {text_of(plain)});
    const Recording zipped = read_recording(gz);
    const Recording unzipped = read_recording(plain);
    EXPECT_EQ(zipped.format, "optiml-manifest");
    EXPECT_EQ(zipped.kernel, unzipped.kernel);
    EXPECT_EQ(zipped.records.size(), unzipped.records.size());
    EXPECT_EQ(zipped.space.defaults, unzipped.space.defaults);
    EXPECT_EQ(zipped.baseline_source, BaselineSource::recording);
    EXPECT_EQ(zipped.optimum_ms(), unzipped.optimum_ms());
}

TEST(PublishedRecording, CorruptGzipIsAnErrorNamingTheFile) {
    const fs::path good = temp("good.json.gz");
    write_gzip(good, {text_of(data("t4_results.json"))});
    const std::string bytes = text_of(good);

    const fs::path truncated = temp("truncated.json.gz");
    write_text(truncated, bytes.substr(0, bytes.size() - 12));
    EXPECT_EQ(error_reading(truncated),
              truncated.string() +
                  ": (file): corrupt gzip data (truncated: the data ends inside the compressed "
                  "stream); expected a gzipped recording as gzip writes it, or a plain JSON one");

    std::string flipped = bytes;
    for (std::size_t i = 12; i < flipped.size() - 8; i += 7)
        flipped[i] = static_cast<char>(~flipped[i]);
    const fs::path damaged = temp("damaged.json.gz");
    write_text(damaged, flipped);
    const std::string error = error_reading(damaged);
    EXPECT_EQ(error.rfind(damaged.string() + ": (file): corrupt gzip data (", 0), 0u) << error;
    EXPECT_NE(error.find("); expected a gzipped recording as gzip writes it"), std::string::npos)
        << error;

    const fs::path trailing = temp("trailing.json.gz");
    write_text(trailing, bytes + "{}");
    EXPECT_EQ(error_reading(trailing),
              trailing.string() +
                  ": (file): corrupt gzip data (data after the end of the gzip stream); expected a "
                  "gzipped recording as gzip writes it, or a plain JSON one");
}

// T4 files as Kernel Tuner publishes them write the time's unit as "": the file's default, ms.
TEST(PublishedRecording, AT4MeasurementWithAnEmptyUnitIsInMilliseconds) {
    const auto t4 = [](const std::string& unit) {
        return R"({"schema_version": "1.0.0", "results": [{"configuration": {"a": 1},
                   "objectives": ["time"], "invalidity": "correct",
                   "measurements": [{"name": "time", "value": 1.5, "unit": )" +
               unit + "}]}]}";
    };
    const fs::path empty = temp("t4_empty_unit.json");
    write_text(empty, t4(R"("")"));
    EXPECT_DOUBLE_EQ(read_recording(empty).records.at({{"a", 1}}).median_ms, 1.5);

    const fs::path unknown = temp("t4_unknown_unit.json");
    write_text(unknown, t4(R"("ns")"));
    EXPECT_EQ(error_reading(unknown),
              unknown.string() +
                  ": results[0].measurements[0].unit: got \"ns\"; expected \"ms\", \"s\", \"us\" "
                  "or \"\" (ms)");
}

// A space of four parameters, numeric and categorical, with failures and a narrow optimum.
struct Point {
    std::int64_t alpha, beta, mid, zeta;
    bool failed() const { return alpha == 64 && beta == 4; }
    double ms() const {
        return 1.0 + std::abs(static_cast<double>(alpha) - 16.0) / 8.0 +
               0.3 * static_cast<double>((zeta - 4) * (zeta - 4)) + 0.2 * static_cast<double>(mid) +
               0.05 * static_cast<double>(beta) + 0.001 * static_cast<double>(alpha + zeta);
    }
};

std::vector<Point> points() {
    std::vector<Point> all;
    for (const std::int64_t zeta : {1, 2, 3, 4, 5, 6})
        for (const std::int64_t alpha : {8, 16, 32, 64})
            for (const std::int64_t mid : {0, 1})
                for (const std::int64_t beta : {1, 2, 4}) all.push_back({alpha, beta, mid, zeta});
    return all;
}

// The space as a Kernel Tuner cache file with its keys in `keys`' order (mid a boolean).
fs::path kernel_tuner_file(const std::vector<std::string>& keys, const std::string& name) {
    nlohmann::json cache = nlohmann::json::object();
    for (const Point& p : points()) {
        const std::map<std::string, nlohmann::json> values = {
            {"alpha", p.alpha}, {"beta", p.beta}, {"mid", p.mid == 1}, {"zeta", p.zeta}};
        nlohmann::json entry;
        std::string key;
        for (const std::string& k : keys) {
            entry[k] = values.at(k);
            key += (key.empty() ? "" : ",") + values.at(k).dump();
        }
        entry["time"] = p.failed() ? nlohmann::json("RuntimeFailedConfig") : nlohmann::json(p.ms());
        cache[key] = entry;
    }
    const fs::path file = temp(name);
    write_text(file, nlohmann::json{{"tune_params_keys", keys}, {"cache", cache}}.dump());
    return file;
}

fs::path t4_file(const std::string& name) {
    nlohmann::json results = nlohmann::json::array();
    for (const Point& p : points()) {
        nlohmann::json row = {
            {"configuration",
             {{"zeta", p.zeta}, {"mid", p.mid == 1}, {"alpha", p.alpha}, {"beta", p.beta}}},
            {"objectives", {"time"}},
            {"invalidity", p.failed() ? "runtime" : "correct"}};
        if (!p.failed())
            row["measurements"] = {{{"name", "time"}, {"value", p.ms()}, {"unit", ""}}};
        results.push_back(row);
    }
    const fs::path file = temp(name);
    write_text(file, nlohmann::json{{"schema_version", "1.0.0"}, {"results", results}}.dump());
    return file;
}

std::vector<Config> replayed(const Recording& recording, const std::string& strategy,
                             std::uint64_t seed, std::size_t in_flight) {
    ReplayEvaluator evaluator(recording, in_flight);
    const Result result = run_search(recording.space, evaluator, {40, 1e9, strategy}, {}, seed);
    std::vector<Config> configs;
    for (const TraceItem& item : result.trace) configs.push_back(item.candidate.parameters);
    return configs;
}

TEST(PublishedRecording, ASeedGivesTheSameRunWhateverTheFilesParameterOrder) {
    const Recording kt = read_recording(
        kernel_tuner_file({"zeta", "alpha", "mid", "beta"}, "order_zeta_first.json"));
    const Recording kt_other =
        read_recording(kernel_tuner_file({"mid", "beta", "zeta", "alpha"}, "order_mid_first.json"));
    const Recording t4 = read_recording(t4_file("order_t4.json"));
    const std::vector<std::string> sorted = {"alpha", "beta", "mid", "zeta"};
    for (const Recording* recording : {&kt, &kt_other, &t4}) {
        EXPECT_EQ(recording->space.names, sorted) << recording->file;
        EXPECT_EQ(recording->space.values[3], (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6}));
        EXPECT_EQ(recording->space.defaults,
                  (Config{{"alpha", 8}, {"beta", 1}, {"mid", 0}, {"zeta", 1}}))
            << "the first recorded configuration, the names sorted";
        EXPECT_EQ(recording->baseline_source, BaselineSource::first_recorded);
    }
    for (const std::string& strategy : strategy_names())
        for (const std::uint64_t seed : {1, 7})
            for (const std::size_t in_flight : {std::size_t{0}, kMaxStreamingDepth}) {
                const auto run = replayed(kt, strategy, seed, in_flight);
                EXPECT_EQ(run.size(), 40u) << strategy;
                EXPECT_EQ(replayed(kt_other, strategy, seed, in_flight), run)
                    << strategy << ", seed " << seed << ", " << in_flight << " in flight";
                EXPECT_EQ(replayed(t4, strategy, seed, in_flight), run)
                    << strategy << ", seed " << seed << ", " << in_flight << " in flight";
            }
}

TEST(PublishedRecording, SortingParametersMovesTheirValuesAlong) {
    Space space;
    space.names = {"z", "a", "m"};
    space.values = {{3, 1, 2}, {10}, {7, 5}};
    sort_parameters(space);
    EXPECT_EQ(space.names, (std::vector<std::string>{"a", "m", "z"}));
    EXPECT_EQ(space.values, (std::vector<std::vector<std::int64_t>>{{10}, {7, 5}, {3, 1, 2}}))
        << "each parameter's values keep their order (the one neighbours use)";
}

TEST(PublishedRecording, ABaselineIsNamedByItsValues) {
    const Recording kt = read_recording(data("kernel_tuner_cache.json"));
    // Kernel Tuner's strings by their text or the index that stands for them, booleans as Python
    // writes them or as 0/1.
    const Config fast{{"block_size_x", 32}, {"layout", 1}, {"use_shared", 1}};
    EXPECT_EQ(recorded_configuration(kt, "block_size_x=32,use_shared=True,layout=col"), fast);
    EXPECT_EQ(recorded_configuration(kt, " block_size_x = 32 , use_shared=1,layout=1"), fast);

    const auto error = [&](const std::string& text) {
        try {
            recorded_configuration(kt, text);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(error("block_size_x=16,use_shared=1,layout=col"),
              "block_size_x=16 layout=1 use_shared=1 is not in " + kt.file +
                  "; expected a recorded configuration");
    EXPECT_EQ(error("block_size_x=16"),
              "no value for layout; expected a value for each of the recording's parameters: "
              "block_size_x, layout, use_shared");
    EXPECT_EQ(error("block_size_x:16"),
              "got \"block_size_x:16\"; expected name=value pairs separated by commas, e.g. "
              "block_size_x=16,layout=0,use_shared=0");
    EXPECT_EQ(error("block=16"), "no parameter \"block\" in " + kt.file +
                                     "; expected one of its parameters: block_size_x, layout, "
                                     "use_shared");
    EXPECT_EQ(error("layout=diagonal"),
              "layout=diagonal: not a value of layout; expected one of its recorded values: 0 "
              "(row), 1 (col)");
    EXPECT_EQ(error("layout=0,layout=1"), "layout given twice; expected each parameter once");
}

// The trace of a replay: each evaluation with its outcome and the best so far, then the summary.
TEST(PublishedRecording, TheTraceHoldsEveryEvaluationAndTheSummary) {
    Recording recording = read_recording(data("optiml_recording.json"));
    recording.space.defaults = {{"block", 128}, {"items", 2}};  // recorded as failed
    recording.baseline_source = BaselineSource::named;
    ReplayEvaluator evaluator(recording);
    const Result result = run_search(recording.space, evaluator, {10, 1e9, "exhaustive"}, {}, 3);
    // Read back from the text a file holds: every field as it was written.
    const nlohmann::ordered_json ordered = replay_trace_json(recording, result, {"auto", 3, 10, 0});
    const std::string text = replay_trace_text(ordered);
    EXPECT_EQ(nlohmann::ordered_json::parse(text), ordered);
    EXPECT_EQ(text.rfind("{\n \"format\": \"optiml-replay-trace\",\n \"version\": 1,\n", 0), 0u)
        << text;
    EXPECT_NE(text.find("\n  {\"evaluation\":2,\"parameters\":{\"block\":64,\"items\":1},"),
              std::string::npos)
        << "an evaluation a line\n"
        << text;
    const nlohmann::json trace = nlohmann::json::parse(text);
    EXPECT_EQ(trace["format"], "optiml-replay-trace");
    EXPECT_EQ(trace["version"], 1);
    EXPECT_EQ(trace["recording"]["format"], "optiml-recording");
    EXPECT_EQ(trace["recording"]["configurations"], 3);
    EXPECT_EQ(trace["search"]["strategy"], "exhaustive");
    EXPECT_EQ(trace["search"]["requested_strategy"], "auto");
    EXPECT_EQ(trace["search"]["seed"], 3);
    EXPECT_EQ(trace["search"]["pipeline"], "batches of 8");
    EXPECT_EQ(trace["search"]["stop_reason"], "every configuration was measured");
    EXPECT_EQ(trace["baseline"], (nlohmann::json{{"parameters", {{"block", 128}, {"items", 2}}},
                                                 {"source", "--baseline"}}));

    const nlohmann::json& rows = trace["evaluations"];
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0], (nlohmann::json{{"evaluation", 1},
                                       {"parameters", {{"block", 128}, {"items", 2}}},
                                       {"status", "mismatch"},
                                       {"message", "output differs"},
                                       {"best_ms", nullptr}}));
    EXPECT_EQ(rows[1]["parameters"], (nlohmann::json{{"block", 64}, {"items", 1}}));
    EXPECT_EQ(rows[1]["time_ms"],
              (nlohmann::json{{"median", 3.0}, {"min", 2.9}, {"max", 3.2}, {"runs", 10}}));
    EXPECT_EQ(rows[1]["best_ms"], 3.0);
    EXPECT_EQ(rows[2]["time_ms"]["median"], 2.0);
    EXPECT_EQ(rows[2]["best_ms"], 2.0);

    EXPECT_EQ(
        trace["summary"],
        (nlohmann::json{
            {"evaluations", 3},
            {"optimum_ms", 2.0},
            {"best",
             {{"evaluation", 3}, {"parameters", {{"block", 64}, {"items", 2}}}, {"time_ms", 2.0}}},
            {"ratio", 1.0},
            {"evaluations_to_within_2_percent", 3}}));
}

}  // namespace
}  // namespace optiml::search
