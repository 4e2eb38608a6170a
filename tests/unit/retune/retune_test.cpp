// The nightly retune against a replayed GPU: `optiml build` (no GPU: the saxpy example's seed
// hits) writes the build manifest, then `retune` replays recorded measurements of saxpy as the
// GPU. Replaying the seed entry's own trace must report it unchanged; the same trace with every
// time 30% slower (the shipped winner got slower: a driver or clock change) is a regression.
#include "driver/retune/retune.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include "cache/signature.h"
#include "cache/store.h"
#include "cache/trust.h"
#include "driver/build/kernel_build.h"
#include "driver/compile/nvrtc_compiler.h"
#include "driver/identity/build_manifest.h"
#include "driver/identity/kernel_key.h"
#include "tests/unit/build/build_test_support.h"

namespace optiml::retune {
namespace {
namespace fs = std::filesystem;

const fs::path kSeed = fs::path(OPTIML_SOURCE_DIR) / "examples/saxpy/optiml-seed";

class RetuneTest : public ::testing::Test {
  protected:
    void SetUp() override {
        setenv("OPTIML_WORKER", OPTIML_FAKE_WORKER, 1);  // no GPU, whatever the machine
        setenv("FAKE_DEVICES", "0", 1);
        dir_ = fs::temp_directory_path() / ("optiml-retune-test-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        // A copy of the seed whose entry says it was compiled by another NVRTC (the manifest is
        // not among the digested files).
        fs::create_directories(dir_);
        fs::copy(kSeed, dir_ / "seed", fs::copy_options::recursive);
        const cache::Store seed(dir_ / "seed", true);
        entry_ = *seed.inspect(seed.keys().at(0));
        // The edit voids the project's signature: the copy is signed again by a key of its own,
        // which the copy's trusted-keys file lists.
        entry_.manifest["nvrtc_version"] = "12.1";
        const fs::path public_key = cache::write_key_pair(dir_ / "keys", "test", "retune test");
        entry_ = cache::signed_entry(entry_, cache::SigningKey::load(dir_ / "keys/test.pem"));
        std::ofstream(entry_.directory / "manifest.json") << entry_.manifest.dump(1);
        std::ifstream key_line(public_key);
        std::ofstream(dir_ / "seed" / cache::kTrustedKeysFileName, std::ios::app)
            << std::string(std::istreambuf_iterator<char>(key_line), {});
    }
    void TearDown() override {
        unsetenv("FAKE_DEVICES");
        fs::remove_all(dir_);
    }

    // `optiml build` of saxpy for sm_90 (a seed hit) and sm_80 (no entry) into dir_/build, as
    // target `target` declares it; its LLM settings resolved as `optiml build` does, the
    // environment's with `llm_flags` (what CMake passes) over them.
    void build(const std::string& target = "app", const llm::LlmOverrides& llm_flags = {},
               std::optional<std::string> strategy = {}) {
        build::BuildOptions options;
        options.strategy = std::move(strategy);
        options.llm = llm::apply_overrides(llm::llm_config_from_environment(), llm_flags);
        options.llm_flags = llm_flags;
        options.spec = fs::path(OPTIML_SOURCE_DIR) / "examples/saxpy/kernels/saxpy.optiml.json";
        options.archs = {90, 80};
        options.out_dir = dir_ / "build/optiml" / target;
        options.cache_dir = dir_ / "cache";
        options.seeds = {dir_ / "seed"};
        options.manifest =
            identity::declared_kernels_dir(dir_ / "build") / (target + ".saxpy.json");
        build::test::successful_build(options);
    }

    // The seed entry's trace as a recording, each time (median, min, max) times `factor`.
    fs::path recording(double factor) {
        nlohmann::json manifest = entry_.manifest;
        for (auto& row : manifest["trace"])
            if (row.contains("time_ms"))
                for (const char* field : {"median", "min", "max"})
                    row["time_ms"][field] = row["time_ms"][field].get<double>() * factor;
        const fs::path file = dir_ / ("recording-" + std::to_string(factor) + ".json");
        std::ofstream(file) << manifest.dump();
        return file;
    }

    int retune(double factor, retune::RetuneReport& report, std::string& log) {
        retune::RetuneOptions options;
        options.build_dir = dir_ / "build";
        options.fail_on_regression = 5.0;
        options.replays = {recording(factor)};
        options.budget_evaluations = 1000;  // exhaustive over the recording
        std::ostringstream out;
        const int status = retune::run_retune(options, out, &report);
        log = out.str();
        return status;
    }

    const retune::RetuneRow& row(const retune::RetuneReport& report, const std::string& arch) {
        for (const auto& r : report.rows)
            if (r.arch == arch) return r;
        throw std::runtime_error("no row for " + arch);
    }

    fs::path dir_;
    cache::Entry entry_;
};

TEST_F(RetuneTest, TheBuildManifestListsEachArchitectureWithItsKeyAndResult) {
    build();
    const auto kernels = identity::read_declared_kernels(dir_ / "build");
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].name, "saxpy");
    EXPECT_EQ(kernels[0].mode, "auto");
    EXPECT_EQ(kernels[0].cache_dir, dir_ / "cache");
    ASSERT_EQ(kernels[0].archs.size(), 2u);
    EXPECT_EQ(kernels[0].archs[0].arch, "sm_90");
    EXPECT_EQ(kernels[0].archs[0].key, entry_.key);
    EXPECT_EQ(kernels[0].archs[0].result, "hit");
    EXPECT_EQ(kernels[0].archs[0].where.rfind("seed", 0), 0u) << kernels[0].archs[0].where;
    EXPECT_EQ(kernels[0].archs[1].arch, "sm_80");
    EXPECT_EQ(kernels[0].archs[1].result, "original");
    EXPECT_EQ(kernels[0].archs[1].key.size(), 64u);
}

TEST_F(RetuneTest, ABuildFolderWithoutTheManifestIsAnErrorThatSaysHowToMakeIt) {
    fs::create_directories(dir_ / "empty");
    retune::RetuneOptions options;
    options.build_dir = dir_ / "empty";
    std::ostringstream log;
    EXPECT_EQ(retune::run_retune(options, log), 1);
    EXPECT_NE(log.str().find("optiml-kernels: no such folder"), std::string::npos) << log.str();
    EXPECT_NE(log.str().find("cmake --build"), std::string::npos) << log.str();
}

// No GPU here and no recording: the report says skipped, and the run fails rather than pass.
TEST_F(RetuneTest, NothingToRetuneOnIsAnErrorNotAPass) {
    build();
    retune::RetuneOptions options;
    options.build_dir = dir_ / "build";
    options.fail_on_regression = 5.0;
    std::ostringstream log;
    retune::RetuneReport report;
    EXPECT_EQ(retune::run_retune(options, log, &report), 1);
    ASSERT_EQ(report.rows.size(), 2u);
    EXPECT_EQ(report.rows[0].status, "skipped");
    EXPECT_NE(report.rows[0].note.find("no GPU of this architecture here"), std::string::npos);
    EXPECT_NE(log.str().find("nothing was retuned"), std::string::npos) << log.str();
    EXPECT_TRUE(fs::exists(dir_ / "build/optiml-retune/retune-report.md"));
}

TEST_F(RetuneTest, AMalformedManifestFileIsNamedWithItsField) {
    build();
    const fs::path file = identity::declared_kernels_dir(dir_ / "build") / "app.saxpy.json";
    nlohmann::json json = nlohmann::json::parse(build::test::read_text(file));
    json["archs"][1]["arch"] = "80";
    std::ofstream(file) << json.dump();
    retune::RetuneOptions options;
    options.build_dir = dir_ / "build";
    std::ostringstream log;
    EXPECT_EQ(retune::run_retune(options, log), 1);
    EXPECT_NE(log.str().find(file.string() + ": archs[1].arch: \"80\"; expected sm_<number>"),
              std::string::npos)
        << log.str();
}

TEST_F(RetuneTest, ReplayingTheEntrysOwnMeasurementsReportsItUnchanged) {
    build();
    retune::RetuneReport report;
    std::string log;
    EXPECT_EQ(retune(1.0, report, log), 0) << log;
    const retune::RetuneRow& r = row(report, "sm_90");
    EXPECT_EQ(r.status, "unchanged") << log;
    EXPECT_FALSE(r.regression) << r.regression_reason;
    EXPECT_EQ(r.new_winner, r.cached_winner);
    ASSERT_TRUE(r.cached_now && r.recorded);
    EXPECT_DOUBLE_EQ(r.cached_now->median, entry_.manifest["time_ms"]["median"].get<double>());
    EXPECT_FALSE(r.cache_updated);  // a replay times no binary
    // The toolchain change since the entry is named.
    ASSERT_EQ(r.changes.size(), 1u);
    EXPECT_EQ(r.changes[0], "NVRTC 12.1 -> " + compile::nvrtc_version());
    // sm_80 had no entry: a new result, nothing to regress against.
    EXPECT_EQ(row(report, "sm_80").status, "new");
    EXPECT_FALSE(row(report, "sm_80").regression);

    const std::string markdown =
        build::test::read_text(dir_ / "build/optiml-retune/retune-report.md");
    EXPECT_NE(markdown.find("| saxpy | sm_90 | unchanged |"), std::string::npos) << markdown;
    EXPECT_NE(markdown.find("0 regression(s) beyond 5%"), std::string::npos) << markdown;
    const auto json = nlohmann::json::parse(
        build::test::read_text(dir_ / "build/optiml-retune/retune-report.json"));
    EXPECT_EQ(json["regressions"], 0);
    EXPECT_EQ(json["rows"][0]["status"], "unchanged");
}

TEST_F(RetuneTest, APlantedSlowdownOfTheCachedWinnerIsARegressionThatFailsTheRun) {
    build();
    retune::RetuneReport report;
    std::string log;
    EXPECT_EQ(retune(1.3, report, log), kRegressionStatus) << log;
    const retune::RetuneRow& r = row(report, "sm_90");
    // Side by side the winner is the same configuration, so unchanged; against its record, 30%
    // slower.
    EXPECT_EQ(r.status, "unchanged");
    EXPECT_TRUE(r.regression);
    EXPECT_NE(r.regression_reason.find("+30.0% slower than its entry recorded"), std::string::npos)
        << r.regression_reason;
    EXPECT_NE(log.find("optiml: regression: saxpy sm_90"), std::string::npos) << log;
    const std::string markdown =
        build::test::read_text(dir_ / "build/optiml-retune/retune-report.md");
    EXPECT_NE(markdown.find("1 regression(s) beyond 5%"), std::string::npos) << markdown;
    EXPECT_NE(markdown.find("**regression**"), std::string::npos) << markdown;
}

TEST_F(RetuneTest, AKernelTwoTargetsDeclareIsRetunedOncePerArchitecture) {
    build("app");
    build("library");
    ASSERT_EQ(identity::read_declared_kernels(dir_ / "build").size(), 2u);
    retune::RetuneReport report;
    std::string log;
    EXPECT_EQ(retune(1.0, report, log), 0) << log;
    EXPECT_EQ(report.rows.size(), 2u) << log;  // sm_90 and sm_80, once each
    EXPECT_NE(log.find("retuned once"), std::string::npos) << log;
}

// The LLM enters the retune's key as it entered the build's: CMake's settings (flags the build
// manifest records) and the environment's. sm_80 has no entry: its row's old key is the one the
// build computed and looked up.
TEST_F(RetuneTest, ARetuneComputesTheBuildsKeyForASpecWithAnLlmConfigured) {
    const spec::Spec spec =
        spec::load_spec(fs::path(OPTIML_SOURCE_DIR) / "examples/saxpy/kernels/saxpy.optiml.json");
    const std::string plain =
        cache::compute_key(identity::key_inputs(spec, identity::scan_sources(spec), 80));
    const auto retuned_sm80 = [&] {
        retune::RetuneOptions options;
        options.build_dir = dir_ / "build";
        options.llm = llm::llm_config_from_environment();  // as `optiml retune` reads it
        std::ostringstream log;
        retune::RetuneReport report;
        EXPECT_EQ(retune::run_retune(options, log, &report), 1)
            << log.str();  // no GPU: all skipped
        return row(report, "sm_80");
    };

    llm::LlmOverrides flags;
    flags.base_url = "http://127.0.0.1:9/v1";
    flags.model = "cmake-model";
    build("app", flags);
    ASSERT_EQ(identity::read_declared_kernels(dir_ / "build").at(0).llm_flags.at("model"),
              "cmake-model");
    const retune::RetuneRow by_flags = retuned_sm80();
    EXPECT_EQ(by_flags.new_key, by_flags.old_key);
    EXPECT_NE(by_flags.new_key, plain);  // the model is in it

    fs::remove_all(dir_ / "build");
    setenv("OPTIML_LLM_BASE_URL", "http://127.0.0.1:9/v1", 1);
    setenv("OPTIML_LLM_MODEL", "environment-model", 1);
    build("app");
    const retune::RetuneRow by_environment = retuned_sm80();
    unsetenv("OPTIML_LLM_BASE_URL");
    unsetenv("OPTIML_LLM_MODEL");
    EXPECT_EQ(by_environment.new_key, by_environment.old_key);
    EXPECT_NE(by_environment.new_key, plain);
    EXPECT_NE(by_environment.new_key, by_flags.new_key);
}

// `optiml build --strategy random` with an LLM configured: random runs no transformations, so
// the LLM is not in the build's key. The manifest records the override, and the retune computes
// the build's key (with the spec's auto it would put the model in) and tunes with it.
TEST_F(RetuneTest, ARetuneUsesTheStrategyTheBuildWasGiven) {
    llm::LlmOverrides flags;
    flags.base_url = "http://127.0.0.1:9/v1";
    flags.model = "cmake-model";
    build("app", flags, "random");
    ASSERT_EQ(identity::read_declared_kernels(dir_ / "build").at(0).strategy, "random");
    retune::RetuneReport report;
    std::string log;
    EXPECT_EQ(retune(1.0, report, log), 0) << log;
    const retune::RetuneRow& r = row(report, "sm_90");
    EXPECT_EQ(r.old_key, entry_.key);  // the seed's entry: no LLM in the build's key
    EXPECT_EQ(r.new_key, r.old_key) << log;
    EXPECT_EQ(r.status, "unchanged") << log;
}

TEST_F(RetuneTest, AnUnknownStrategyInTheManifestIsNamedWithItsField) {
    build();
    const fs::path file = identity::declared_kernels_dir(dir_ / "build") / "app.saxpy.json";
    nlohmann::json json = nlohmann::json::parse(build::test::read_text(file));
    json["strategy"] = "simulated_annealing";
    std::ofstream(file) << json.dump();
    EXPECT_THROW(
        {
            try {
                identity::read_declared_kernels(dir_ / "build");
            } catch (const identity::BuildManifestError& e) {
                EXPECT_NE(
                    std::string(e.what()).find(
                        file.string() + ": strategy: \"simulated_annealing\"; expected one of"),
                    std::string::npos)
                    << e.what();
                throw;
            }
        },
        identity::BuildManifestError);
}

TEST_F(RetuneTest, ASlowdownWithinTheThresholdPasses) {
    build();
    retune::RetuneReport report;
    std::string log;
    EXPECT_EQ(retune(1.03, report, log), 0) << log;
    EXPECT_FALSE(row(report, "sm_90").regression);
}

retune::TimeInterval around(double median, double half_width) {
    return {median, median - half_width, median + half_width, 50};
}

TEST(RetuneReport, IntervalsDecideFasterSlowerUnchanged) {
    EXPECT_EQ(retune::compare_intervals(around(1.0, 0.01), around(1.1, 0.01)), "faster");
    EXPECT_EQ(retune::compare_intervals(around(1.1, 0.01), around(1.0, 0.01)), "slower");
    EXPECT_EQ(retune::compare_intervals(around(1.0, 0.06), around(1.1, 0.06)), "unchanged");
}

TEST(RetuneReport, ANewKeysSlowerWinnerIsARegressionAgainstTheEntryItReplaces) {
    retune::RetuneReport report;
    retune::RetuneRow row;
    row.kernel = "k";
    row.arch = "sm_90";
    row.old_key = "a";
    row.new_key = "b";
    row.cached_now = around(1.0, 0.01);
    row.new_now = around(1.2, 0.01);
    row.replaces = true;  // the new key has only the new winner
    row.status = retune::compare_intervals(*row.new_now, *row.cached_now);
    report.rows.push_back(row);
    retune::mark_regressions(report, 10.0);
    EXPECT_TRUE(report.rows[0].regression);
    EXPECT_NE(report.rows[0].regression_reason.find("side by side"), std::string::npos);
    retune::mark_regressions(report, 25.0);  // 20% is within a 25% threshold
    EXPECT_FALSE(report.rows[0].regression);
    // Under the old key the cached winner would stay: nothing regresses.
    report.rows[0].replaces = false;
    retune::mark_regressions(report, 10.0);
    EXPECT_FALSE(report.rows[0].regression);
}

}  // namespace
}  // namespace optiml::retune
