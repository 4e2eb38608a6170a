// The two timing conditions (issue 25, item 8): every candidate timed cold (L2 emptied before
// each run) and warm (back-to-back launches, as a loop in a program); the spec's timing.decide_by
// picks the one that decides the winner and the speedup reported. Checked without a GPU: the
// spec field and its place in the key, the worker protocol, the warm plan, the decision through
// the scripted worker (fake_timing_worker.sh: the fastest block is 64 cold, 512 warm), and the
// manifest and build line of a whole tuning.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "driver/measure/detail/warm_plan.h"
#include "driver/measure/protocol.h"
#include "driver/spec/spec.h"
#include "driver/tune/timing_conditions.h"
#include "driver/tune/tuning.h"

namespace optiml::measure {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kSpec = fs::path(OPTIML_TEST_DATA) / "scale.optiml.json";

json spec_json() {
    return json::parse(std::ifstream(kSpec));
}

spec::Spec parsed(const json& timing) {
    json text = spec_json();
    if (!timing.is_null()) text["timing"] = timing;
    return spec::parse_spec(text, kSpec);
}

TEST(DecideBy, DefaultsToColdAndReadsWarm) {
    EXPECT_EQ(parsed(nullptr).timing.decide_by, spec::TimingCondition::Cold);
    EXPECT_EQ(parsed({{"decide_by", "cold"}}).timing.decide_by, spec::TimingCondition::Cold);
    EXPECT_EQ(parsed({{"decide_by", "warm"}}).timing.decide_by, spec::TimingCondition::Warm);
    EXPECT_EQ(spec::to_string(spec::TimingCondition::Warm), "warm");
}

TEST(DecideBy, AnUnknownConditionIsRejectedWithTheField) {
    try {
        parsed({{"decide_by", "hot"}});
        FAIL() << "\"hot\" was accepted";
    } catch (const spec::SpecError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("decide_by"), std::string::npos) << what;
        EXPECT_NE(what.find("\"hot\""), std::string::npos) << what;
    }
}

// The default serializes as before: every committed seed's key stays what it was.
TEST(DecideBy, EntersTheNormalizedSpecOnlyWhenItIsWarm) {
    const json reference = parsed(nullptr).normalized;
    EXPECT_FALSE(reference.contains("timing"));
    EXPECT_EQ(parsed({{"decide_by", "cold"}}).normalized, reference);
    EXPECT_EQ(parsed({{"decide_by", "warm"}}).normalized.at("timing"),
              json({{"decide_by", "warm"}}));
    EXPECT_EQ(parsed({{"decide_by", "warm"}, {"cold_cache", "rotate"}}).normalized.at("timing"),
              json({{"cold_cache", "rotate"}, {"decide_by", "warm"}}));
}

TEST(TimingRequest, AsksForBothConditionsAndSaysWhichDecides) {
    const TimingSpec cold = make_timing(parsed(nullptr));
    EXPECT_TRUE(cold.warm);
    EXPECT_FALSE(cold.decide_warm);
    const TimingSpec warm = make_timing(parsed({{"decide_by", "warm"}}));
    EXPECT_TRUE(warm.decide_warm);
    const TimingSpec back = json(warm).get<TimingSpec>();
    EXPECT_TRUE(back.warm);
    EXPECT_TRUE(back.decide_warm);
    // A request from an older driver: both timed, cold decides.
    json old = json(TimingSpec{});
    old.erase("warm");
    old.erase("decide_warm");
    EXPECT_TRUE(old.get<TimingSpec>().warm);
    EXPECT_FALSE(old.get<TimingSpec>().decide_warm);
}

TEST(TimingRequest, TheMeasurementCarriesBothConditions) {
    Measurement m;
    m.ok = true;
    m.decided_by = "warm";
    m.cold_median_ms = 0.0304;
    m.warm_median_ms = 0.0271;
    m.incumbent_cold_median_ms = 0.05;
    m.incumbent_warm_median_ms = 0.04;
    m.warm_runs = 7;
    m.warm_burst = 19;
    const Measurement back = json(m).get<Measurement>();
    EXPECT_EQ(back.decided_by, "warm");
    EXPECT_DOUBLE_EQ(back.cold_median_ms, 0.0304);
    EXPECT_DOUBLE_EQ(back.warm_median_ms, 0.0271);
    EXPECT_DOUBLE_EQ(back.incumbent_cold_median_ms, 0.05);
    EXPECT_DOUBLE_EQ(back.incumbent_warm_median_ms, 0.04);
    EXPECT_EQ(back.warm_runs, 7);
    EXPECT_EQ(back.warm_burst, 19);
}

TEST(WarmPlan, ABurstLastsAboutHalfAMillisecondWithinItsBounds) {
    const TimingSpec timing;
    EXPECT_EQ(plan_warm(0.027, timing).burst, 19);  // the matrixMul sample's 27 us kernel
    EXPECT_EQ(plan_warm(10.0, timing).burst, kMinWarmBurst);
    EXPECT_EQ(plan_warm(0.0001, timing).burst, kMaxWarmBurst);
    EXPECT_EQ(plan_warm(0.0, timing).burst, kMaxWarmBurst);
    EXPECT_DOUBLE_EQ(plan_warm(0.027, timing).cap_ms, timing.cap_ms / 4);
}

TEST(WarmPlan, StopsOnANarrowIntervalOrTheCapNeverBeforeThreeBursts) {
    WarmPlan plan;
    plan.burst = 10;
    plan.min_rounds = 5;
    plan.max_rounds = 50;
    plan.relative_ci = 0.01;
    plan.cap_ms = 100.0;
    const std::vector<double> steady(5, 0.027), noisy = {0.02, 0.03, 0.025, 0.035, 0.022};
    EXPECT_FALSE(warm_settled({{0.027, 0.027}}, plan));
    EXPECT_FALSE(warm_settled({std::vector<double>(4, 0.027)}, plan));  // under min_rounds
    EXPECT_TRUE(warm_settled({steady}, plan));
    EXPECT_FALSE(warm_settled({steady, noisy}, plan));               // every kernel must be known
    EXPECT_TRUE(warm_settled({std::vector<double>(3, 5.0)}, plan));  // 150 ms timed > cap
    std::vector<double> many;
    for (int i = 0; i < 50; ++i) many.push_back(i % 2 ? 0.02 : 0.04);
    EXPECT_TRUE(warm_settled({many}, plan));  // max_rounds
}

// The evaluator and search through the scripted worker: the deciding condition picks the winner,
// and the trace rows carry both.
class ConditionTuning : public ::testing::Test {
  protected:
    void SetUp() override {
        scratch_ = fs::temp_directory_path() /
                   ("optiml-timing-conditions-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(scratch_);
        fs::create_directories(scratch_);
        setenv("OPTIML_WORKER", OPTIML_FAKE_TIMING_WORKER, 1);
        setenv("OPTIML_PROFILE", "0", 1);
    }
    void TearDown() override {
        unsetenv("OPTIML_WORKER");
        unsetenv("OPTIML_PROFILE");
        fs::remove_all(scratch_);
    }
    json tune(const json& timing) {
        const spec::Spec spec = parsed(timing);
        tune::TuneRequest request;
        request.spec = &spec;
        request.device = {0, "Fake GPU", 90, 1, 1024, 13000};
        request.key = "test";
        request.budget.evaluations = 100;
        request.budget.seconds = 1e9;
        request.budget.strategy = "exhaustive";
        std::ostringstream log;
        const auto entry = tune::run_tuning(request, log);
        if (!entry) throw std::runtime_error("the tuning failed: " + log.str());
        log_ = log.str();
        return entry->manifest;
    }
    fs::path scratch_;
    std::string log_;
};

TEST_F(ConditionTuning, ColdDecidesByDefaultAndTheManifestRecordsBoth) {
    const json m = tune(nullptr);
    EXPECT_EQ(m["parameters"]["block_size_x"], 64);
    EXPECT_EQ(m["timing"]["decided_by"], "cold");
    EXPECT_EQ(m["timing"]["cold_cache"], "flush");
    // Winner 64 against the original 256: cold 2.56 / 0.64, warm 2.40 / 2.30.
    EXPECT_DOUBLE_EQ(m["timing"]["cold"]["time_ms"].get<double>(), 0.64);
    EXPECT_DOUBLE_EQ(m["timing"]["cold"]["original_time_ms"].get<double>(), 2.56);
    EXPECT_DOUBLE_EQ(m["timing"]["cold"]["speedup"].get<double>(), 4.0);
    EXPECT_DOUBLE_EQ(m["timing"]["warm"]["time_ms"].get<double>(), 2.30);
    EXPECT_DOUBLE_EQ(m["timing"]["warm"]["original_time_ms"].get<double>(), 2.40);
    EXPECT_EQ(m["timing"]["warm"]["burst"], 8);
    EXPECT_DOUBLE_EQ(m["speedup"].get<double>(), 4.0);
    EXPECT_DOUBLE_EQ(m["time_ms"]["median"].get<double>(), 0.64);
    bool both = false;
    for (const json& row : m["trace"])
        both = both || (row["details"].contains("cold_median_ms") &&
                        row["details"].contains("warm_median_ms"));
    EXPECT_TRUE(both) << m["trace"].dump();
}

TEST_F(ConditionTuning, WarmDecidesWhenTheSpecSaysSo) {
    const json m = tune({{"decide_by", "warm"}});
    EXPECT_EQ(m["parameters"]["block_size_x"], 512);
    EXPECT_EQ(m["timing"]["decided_by"], "warm");
    EXPECT_DOUBLE_EQ(m["speedup"].get<double>(), 2.0);  // 2.40 / 1.20
    EXPECT_DOUBLE_EQ(m["time_ms"]["median"].get<double>(), 1.20);
    EXPECT_DOUBLE_EQ(m["timing"]["warm"]["speedup"].get<double>(), 2.0);
    EXPECT_DOUBLE_EQ(m["timing"]["cold"]["speedup"].get<double>(), 2.56 / 3.00);
}

// The build line says which condition its speedup is, and gives the other's.
TEST_F(ConditionTuning, TheBuildLineNamesTheCondition) {
    const json m = tune({{"decide_by", "warm"}});
    const std::string line = tune::entry_summary(cache::read_entry_manifest(m, "test"));
    EXPECT_NE(line.find("(2.00x, warm L2; cold L2 0.85x)"), std::string::npos) << line;
    EXPECT_NE(log_.find("(2.00x, warm L2; cold L2 0.85x)"), std::string::npos) << log_;
}

TEST(BuildLine, AnEntryFromBeforeBothConditionsWasTimedCold) {
    const json m = {
        {"parameters", {{"block_size_x", 512}}},   {"time_ms", {{"median", 0.081}}},
        {"original_time_ms", {{"median", 0.240}}}, {"speedup", 2.96},
        {"device", {{"name", "NVIDIA H200"}}},     {"timing", {{"cold_cache", "flush"}}}};
    EXPECT_EQ(tune::speedup_condition(cache::read_entry_manifest(m, "test")), "cold L2");
    EXPECT_NE(tune::entry_summary(cache::read_entry_manifest(m, "test"))
                  .find("(2.96x, cold L2) on NVIDIA H200"),
              std::string::npos)
        << tune::entry_summary(cache::read_entry_manifest(m, "test"));
}

}  // namespace
}  // namespace optiml::measure
