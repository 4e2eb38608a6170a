// `optiml build` tuning a spec that uses every evaluation option (a comparison function, an extra
// problem size, input rotation) against the scripted worker of the measure tests, which answers
// like a GPU without one: what the tuner sends the worker, what the entry records, what the
// depfile lists, and what a comparison function that does not compile does to the build.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "driver/build/kernel_build.h"
#include "driver/identity/kernel_key.h"

namespace optiml::build {
namespace {
namespace fs = std::filesystem;

class TuneChecksTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("optiml-tune-checks-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_ / "project");
        for (const char* file : {"scale.optiml.json", "scale.cu", "compare_partials.cpp",
                                 "partials_total.h", "broken_compare.cpp"})
            fs::copy(fs::path(OPTIML_SOURCE_DIR) / "tests/unit/tune/data" / file,
                     dir_ / "project" / file);
        setenv("OPTIML_WORKER", OPTIML_FAKE_WORKER, 1);  // a "GPU" of sm_90
        setenv("FAKE_REQUEST_LOG", (dir_ / "requests.log").c_str(), 1);
        setenv("OPTIML_LOCK_FILE", (dir_ / "gpu.lock").c_str(), 1);
        options_.spec = dir_ / "project/scale.optiml.json";
        options_.archs = {90};
        options_.out_dir = dir_ / "out";
        options_.depfile = dir_ / "out/scale.d";
        options_.cache_dir = dir_ / "cache";
        options_.host_compiler = OPTIML_TEST_CXX;
    }
    void TearDown() override {
        for (const char* name : {"OPTIML_WORKER", "FAKE_REQUEST_LOG", "OPTIML_LOCK_FILE",
                                 "FAKE_DEVICES", "OPTIML_DEVICES"})
            unsetenv(name);
        fs::remove_all(dir_);
    }

    static std::string text(const fs::path& path) {
        std::ifstream in(path);
        std::ostringstream out;
        out << in.rdbuf();
        return out.str();
    }
    std::vector<nlohmann::json> requests(const std::string& op) const {
        std::vector<nlohmann::json> found;
        std::ifstream in(dir_ / "requests.log");
        for (std::string line; std::getline(in, line);) {
            auto request = nlohmann::json::parse(line);
            if (request.value("op", "") == op) found.push_back(std::move(request));
        }
        return found;
    }
    nlohmann::json manifest() const {
        for (const auto& entry : fs::recursive_directory_iterator(options_.cache_dir / "entries"))
            if (entry.path().filename() == "manifest.json")
                return nlohmann::json::parse(std::ifstream(entry.path()));
        return {};
    }

    fs::path dir_;
    build::BuildOptions options_;
};

TEST_F(TuneChecksTest, TheWorkerGetsTheComparisonLibraryBothSizesAndRotation) {
    std::ostringstream log;
    ASSERT_EQ(build::run_build(options_, log), 0) << log.str();
    const auto setups = requests("setup");
    ASSERT_EQ(setups.size(), 2u) << log.str();
    for (const auto& setup : setups) {
        const std::string library = setup["problem"]["compare_library"].get<std::string>();
        EXPECT_TRUE(library.ends_with("/compare.so")) << library;
        EXPECT_EQ(setup["problem"]["compare_source"], "compare_partials.cpp");
    }
    EXPECT_EQ(setups[1]["problem_index"], 1);
    EXPECT_EQ(setups[1]["problem"]["arguments"][1]["count"], 1000);
    for (const auto& evaluate : requests("evaluate")) {
        EXPECT_EQ(evaluate["timing"]["rotate_inputs"], true);
        EXPECT_EQ(evaluate["timing"]["flush_l2"], false);
    }
    const auto verifies = requests("verify");
    EXPECT_EQ(verifies.size(), requests("evaluate").size());
    for (const auto& verify : verifies) EXPECT_EQ(verify["problem_index"], 1);
}

TEST_F(TuneChecksTest, TheEntryRecordsTheChecksAndTheSpaceHoldsOnlyConfigurationsValidAtBothSizes) {
    std::ostringstream log;
    ASSERT_EQ(build::run_build(options_, log), 0) << log.str();
    const nlohmann::json m = manifest();
    ASSERT_TRUE(m.contains("verification")) << log.str();
    EXPECT_EQ(m["verification"]["compare"], "compare_partials.cpp");
    EXPECT_EQ(m["verification"]["extra_sizes"], nlohmann::json::parse(R"([{"n": 1000}])"));
    EXPECT_EQ(m["timing"]["cold_cache"], "rotate");
    EXPECT_EQ(m["key_inputs"]["compare_sources"].size(), 2u);
    // 512 and 1024 do not divide 1000: the constraint rules them out at the extra size.
    EXPECT_EQ(m["search"]["space_size"], 3);
    // The throughput is the trace's: its evaluations over the wall time, and the worker times the
    // scripted worker reported (1 ms per verification at the extra size).
    const nlohmann::json& throughput = m["search"]["throughput"];
    EXPECT_DOUBLE_EQ(
        throughput["evaluations_per_minute"].get<double>(),
        m["search"]["evaluations"].get<double>() * 60.0 / m["search"]["wall_s"].get<double>());
    double worker_ms = 0.0;
    for (const auto& row : m["trace"])
        for (const char* name : {"verify_ms", "extra_sizes_verify_ms", "timing_ms"})
            worker_ms += row["details"].value(name, 0.0);
    EXPECT_GT(worker_ms, 0.0);
    EXPECT_DOUBLE_EQ(throughput["worker_s"].get<double>(), worker_ms / 1000.0);
}

// A retune measures every variant again but compiles none of them: their images are cached by
// content. Each variant is compiled on its own and reported as it goes.
TEST_F(TuneChecksTest, ARetuneCompilesNothingItsImagesComeFromTheCache) {
    options_.strategy = "exhaustive";  // the parameters alone: every variant is a new image
    std::ostringstream first_log;
    ASSERT_EQ(build::run_build(options_, first_log), 0) << first_log.str();
    const nlohmann::json first = manifest();
    ASSERT_TRUE(first.contains("trace")) << first_log.str();
    // One image was there already: the original at its defaults, which computing the key
    // compiled to choose the compiler (compiler_choice.h); every other variant was compiled.
    EXPECT_EQ(first["search"]["throughput"]["image_cache_hits"], 1);
    for (const auto& row : first["trace"]) {
        const bool probed =
            !row.contains("source_id") && row["parameters"] == first["default_parameters"];
        EXPECT_EQ(row["details"].contains("compile_cached"), probed) << row.dump();
        EXPECT_TRUE(row["details"].contains("compile_wait_ms"));
    }

    options_.mode = build::Mode::Retune;
    std::ostringstream second_log;
    ASSERT_EQ(build::run_build(options_, second_log), 0) << second_log.str();
    const nlohmann::json second = manifest();
    ASSERT_EQ(second["trace"].size(), first["trace"].size()) << second_log.str();
    EXPECT_EQ(second["search"]["throughput"]["image_cache_hits"], second["trace"].size());
    EXPECT_EQ(second["search"]["throughput"]["compiles_per_minute"], 0.0);
    for (const auto& row : second["trace"]) EXPECT_EQ(row["details"].value("compile_cached", 0), 1);
    EXPECT_NE(
        second_log.str().find(std::to_string(second["trace"].size()) + " images from the cache"),
        std::string::npos)
        << second_log.str();
}

TEST_F(TuneChecksTest, TheDepfileListsTheComparisonFunctionAndItsHeaders) {
    std::ostringstream log;
    ASSERT_EQ(build::run_build(options_, log), 0) << log.str();
    const std::string depfile = text(options_.depfile);
    EXPECT_NE(depfile.find("compare_partials.cpp"), std::string::npos) << depfile;
    EXPECT_NE(depfile.find("partials_total.h"), std::string::npos) << depfile;
}

TEST_F(TuneChecksTest, EditingAHeaderOfTheComparisonFunctionChangesTheKey) {
    const spec::Spec spec = spec::load_spec(options_.spec);
    const std::string before =
        cache::compute_key(identity::key_inputs(spec, identity::scan_sources(spec), 90));
    std::ofstream(dir_ / "project/partials_total.h", std::ios::app) << "// edited\n";
    EXPECT_NE(cache::compute_key(identity::key_inputs(spec, identity::scan_sources(spec), 90)),
              before);
}

// A "file" fill: the data's SHA-256 enters the key (editing the data retunes), the depfile lists
// the file, and the worker is sent its path.
TEST_F(TuneChecksTest, AFileFillsDataEntersTheKeyTheDepfileAndTheSetup) {
    nlohmann::json json = nlohmann::json::parse(std::ifstream(options_.spec));
    json["arguments"][1]["fill"] = {{"kind", "file"}, {"path", "data/x.bin"}};
    json["check"].erase("extra_sizes");  // a file's count cannot follow n
    std::ofstream(options_.spec) << json.dump();
    fs::create_directories(dir_ / "project/data");
    std::ofstream(dir_ / "project/data/x.bin", std::ios::binary) << std::string(4 * 4096, '\1');

    const spec::Spec spec = spec::load_spec(options_.spec);
    const cache::KeyInputs inputs = identity::key_inputs(spec, identity::scan_sources(spec), 90);
    ASSERT_EQ(inputs.data_files.size(), 1u);
    EXPECT_EQ(inputs.data_files[0].relative_path, "data/x.bin");
    EXPECT_EQ(identity::key_summary(inputs)["data_files"][0]["sha256"],
              inputs.data_files[0].sha256);
    const std::string before = cache::compute_key(inputs);
    std::ofstream(dir_ / "project/data/x.bin", std::ios::binary) << std::string(4 * 4096, '\2');
    EXPECT_NE(cache::compute_key(identity::key_inputs(spec, identity::scan_sources(spec), 90)),
              before)
        << "the same size, other bytes: another key";

    std::ostringstream log;
    ASSERT_EQ(build::run_build(options_, log), 0) << log.str();
    EXPECT_NE(text(options_.depfile).find("data/x.bin"), std::string::npos);
    const auto setups = requests("setup");
    ASSERT_FALSE(setups.empty());
    EXPECT_EQ(setups[0]["problem"]["arguments"][1]["fill"]["file"]["path"],
              (dir_ / "project/data/x.bin").string());
}

// A "generator" fill: the generator's source and its headers enter the key (editing either
// retunes) and the depfile; the tuner builds it and sends the worker its library with the entries
// it fills, at both sizes; the entry records it.
TEST_F(TuneChecksTest, AGeneratorsSourceEntersTheKeyTheDepfileAndTheSetup) {
    nlohmann::json json = nlohmann::json::parse(std::ifstream(options_.spec));
    json["arguments"][1]["fill"] = {{"kind", "generator"}, {"source", "gen/fill_x.cpp"}};
    std::ofstream(options_.spec) << json.dump();
    fs::create_directories(dir_ / "project/gen");
    std::ofstream(dir_ / "project/gen/fill_x.cpp") << R"(#include <optiml/generate.h>
#include "ramp.h"
int optiml_generate(const optiml_generate_args* args) {
    float* x = static_cast<float*>(args->buffers[0].data);
    for (size_t i = 0; i < args->buffers[0].count; ++i) x[i] = ramp(i, args->seed);
    return 0;
}
)";
    std::ofstream(dir_ / "project/gen/ramp.h")
        << "inline float ramp(size_t i, uint64_t seed) { return float(i + seed); }\n";

    const spec::Spec spec = spec::load_spec(options_.spec);
    const cache::KeyInputs inputs = identity::key_inputs(spec, identity::scan_sources(spec), 90);
    ASSERT_EQ(inputs.generator_sources.size(), 1u);
    ASSERT_EQ(inputs.generator_sources[0].size(), 2u) << "the source and its header";
    EXPECT_EQ(inputs.generator_sources[0][0].relative_path, "gen/fill_x.cpp");
    EXPECT_EQ(identity::key_summary(inputs)["generator_sources"].size(), 2u);
    const std::string before = cache::compute_key(inputs);
    std::ofstream(dir_ / "project/gen/fill_x.cpp", std::ios::app) << "// edited\n";
    const std::string edited =
        cache::compute_key(identity::key_inputs(spec, identity::scan_sources(spec), 90));
    EXPECT_NE(edited, before) << "an edited generator: another key";
    std::ofstream(dir_ / "project/gen/ramp.h", std::ios::app) << "// edited\n";
    EXPECT_NE(cache::compute_key(identity::key_inputs(spec, identity::scan_sources(spec), 90)),
              edited)
        << "an edited header of the generator: another key";

    std::ostringstream log;
    ASSERT_EQ(build::run_build(options_, log), 0) << log.str();
    const std::string depfile = text(options_.depfile);
    EXPECT_NE(depfile.find("gen/fill_x.cpp"), std::string::npos) << depfile;
    EXPECT_NE(depfile.find("gen/ramp.h"), std::string::npos) << depfile;
    const auto setups = requests("setup");
    ASSERT_EQ(setups.size(), 2u) << log.str();
    for (const auto& setup : setups) {
        const auto& generators = setup["problem"]["generators"];
        ASSERT_EQ(generators.size(), 1u) << setup.dump();
        EXPECT_EQ(generators[0]["source"], "gen/fill_x.cpp");
        EXPECT_EQ(generators[0]["fills"], nlohmann::json::parse(R"(["x"])"));
        const std::string library = generators[0]["library"].get<std::string>();
        EXPECT_TRUE(library.ends_with("/generator0.so")) << library;
    }
    EXPECT_EQ(manifest()["verification"]["generators"],
              nlohmann::json::parse(R"([{"source": "gen/fill_x.cpp", "fills": ["x"]}])"));
}

TEST_F(TuneChecksTest, AGeneratorThatDoesNotCompileStopsTheBuildNamingIt) {
    nlohmann::json json = nlohmann::json::parse(std::ifstream(options_.spec));
    json["arguments"][1]["fill"] = {{"kind", "generator"}, {"source", "broken_generator.cpp"}};
    std::ofstream(options_.spec) << json.dump();
    std::ofstream(dir_ / "project/broken_generator.cpp") << "int optiml_generate( {\n";
    std::ostringstream log;
    EXPECT_EQ(build::run_build(options_, log), 1);
    const std::string expected =
        "optiml: error: " + (dir_ / "project/broken_generator.cpp").string() +
        ": the input generator (the \"generator\" fill of x in ";
    EXPECT_NE(log.str().find(expected), std::string::npos) << log.str();
    EXPECT_NE(log.str().find("does not compile"), std::string::npos) << log.str();
    EXPECT_TRUE(requests("setup").empty()) << "no worker without the generator";
}

TEST_F(TuneChecksTest, AComparisonFunctionThatDoesNotCompileStopsTheBuildNamingIt) {
    fs::copy_file(dir_ / "project/broken_compare.cpp", dir_ / "project/compare_partials.cpp",
                  fs::copy_options::overwrite_existing);
    std::ostringstream log;
    EXPECT_EQ(build::run_build(options_, log), 1);
    const std::string expected =
        "optiml: error: " + (dir_ / "project/compare_partials.cpp").string() +
        ": the comparison function (check.compare of ";
    EXPECT_NE(log.str().find(expected), std::string::npos) << log.str();
    EXPECT_NE(log.str().find("does not compile"), std::string::npos) << log.str();
    EXPECT_TRUE(requests("evaluate").empty()) << "nothing may be evaluated without the function";
}

// Several GPUs of one model (the scripted worker lists $FAKE_DEVICES identical ones): each gets
// a worker with both problem sizes and verifies; the first times every variant, told that it
// was verified; $OPTIML_DEVICES restricts which take part.
TEST_F(TuneChecksTest, TwoGpusOfOneModelVerifyAndTheFirstTimesEveryVariant) {
    setenv("FAKE_DEVICES", "2", 1);
    std::ostringstream log;
    ASSERT_EQ(build::run_build(options_, log), 0) << log.str();
    EXPECT_NE(log.str().find("sm_90: 2 GPUs verify (devices 0,1); device 0 times every variant"),
              std::string::npos)
        << log.str();
    const nlohmann::json m = manifest();
    EXPECT_EQ(m["devices"], nlohmann::json::parse("[0, 1]"));
    std::map<int, int> setups_per_device;
    for (const auto& setup : requests("setup")) ++setups_per_device[setup["device"].get<int>()];
    EXPECT_EQ(setups_per_device, (std::map<int, int>{{0, 2}, {1, 2}})) << "both sizes on both";
    const auto evaluates = requests("evaluate");
    EXPECT_EQ(evaluates.size(), m["search"]["evaluations"].get<std::size_t>());
    for (const auto& evaluate : evaluates) EXPECT_EQ(evaluate.value("verified", false), true);
    std::map<int, int> verifies_per_size;
    for (const auto& verify : requests("verify")) ++verifies_per_size[verify["problem_index"]];
    EXPECT_EQ(verifies_per_size[0], static_cast<int>(evaluates.size()));
    EXPECT_EQ(verifies_per_size[1], static_cast<int>(evaluates.size()));
    for (const auto& row : m["trace"]) EXPECT_TRUE(row["details"].contains("verified_on_device"));
}

TEST_F(TuneChecksTest, OptimlDevicesOfOneGpuIsTheSingleGpuPath) {
    setenv("FAKE_DEVICES", "2", 1);
    setenv("OPTIML_DEVICES", "0", 1);
    std::ostringstream log;
    ASSERT_EQ(build::run_build(options_, log), 0) << log.str();
    EXPECT_EQ(log.str().find("GPUs verify"), std::string::npos) << log.str();
    EXPECT_EQ(manifest()["devices"], nlohmann::json::parse("[0]"));
    EXPECT_EQ(requests("setup").size(), 2u);
    for (const auto& evaluate : requests("evaluate")) EXPECT_FALSE(evaluate.contains("verified"));
    for (const auto& verify : requests("verify")) EXPECT_EQ(verify["problem_index"], 1);
}

TEST_F(TuneChecksTest, OptimlDevicesChoosesTheGpuThatTunes) {
    setenv("FAKE_DEVICES", "2", 1);
    setenv("OPTIML_DEVICES", "1", 1);
    std::ostringstream log;
    ASSERT_EQ(build::run_build(options_, log), 0) << log.str();
    EXPECT_EQ(manifest()["devices"], nlohmann::json::parse("[1]"));
    for (const auto& setup : requests("setup")) EXPECT_EQ(setup["device"], 1);
}

TEST_F(TuneChecksTest, AMalformedOptimlDevicesStopsTheBuildNamingIt) {
    setenv("OPTIML_DEVICES", "0;1", 1);
    std::ostringstream log;
    EXPECT_EQ(build::run_build(options_, log), 1);
    EXPECT_NE(log.str().find("optiml: error: OPTIML_DEVICES='0;1': '0;1' is not a device index"),
              std::string::npos)
        << log.str();
    EXPECT_TRUE(requests("evaluate").empty());
}

// With the default strategy the tree follows the parameter search: rooted at its best, within
// the one budget, recorded in the entry; an explicit strategy runs the parameters alone.
TEST_F(TuneChecksTest, TheDefaultStrategyGrowsATransformationTreeFromTheParameterBest) {
    std::ostringstream log;
    ASSERT_EQ(build::run_build(options_, log), 0) << log.str();
    const nlohmann::json m = manifest();
    ASSERT_TRUE(m["search"].contains("tree")) << log.str();
    const nlohmann::json& tree = m["search"]["tree"];
    EXPECT_TRUE(m["search"]["strategy"].get<std::string>().ends_with(" + transformations"));
    EXPECT_LE(m["trace"].size(), 10u);  // the spec's budget covers both
    // The space has 3 configurations: the parameter search measured them all, then the tree.
    std::size_t parameter_rows = 0;
    for (const auto& row : m["trace"])
        parameter_rows += row.contains("source_id") || row.contains("options") ? 0 : 1;
    EXPECT_GE(parameter_rows, 3u);
    ASSERT_GT(tree["nodes"].size(), 1u) << tree.dump(1);
    EXPECT_TRUE(tree["nodes"][0]["parent"].is_null());
    std::set<std::string> kinds;
    for (const auto& node : tree["nodes"]) {
        if (node["parent"].is_null()) continue;
        kinds.insert(node["kind"].get<std::string>());
        EXPECT_FALSE(node["transformation"].get<std::string>().empty());
        EXPECT_FALSE(node["rationale"].get<std::string>().empty());
    }
    EXPECT_TRUE(kinds.contains("rewrite")) << tree.dump(1);
    // The tree's nodes are evaluations of the trace beyond the parameter search's.
    EXPECT_EQ(m["trace"].size(), m["search"]["evaluations"].get<std::size_t>());

    options_.strategy = "exhaustive";
    options_.mode = build::Mode::Retune;
    std::ostringstream second_log;
    ASSERT_EQ(build::run_build(options_, second_log), 0) << second_log.str();
    EXPECT_FALSE(manifest()["search"].contains("tree"));
}

}  // namespace
}  // namespace optiml::build
