// The evaluator's decisions, end to end on the driver's side: a real spec, real NVRTC compiles,
// the real search, and a scripted worker (fake_timing_worker.sh) whose times depend on the
// block size. What is checked: a challenger replaces the incumbent only beyond the measured
// spread; a claim over 10x is verified again and rejected when that fails; the original
// configuration is the baseline.
#include "driver/measure/candidate_evaluator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

namespace optiml::measure {
namespace {
namespace fs = std::filesystem;

class CandidateEvaluatorTest : public ::testing::Test {
  protected:
    void SetUp() override {
        scratch_ =
            fs::temp_directory_path() / ("optiml-evaluator-test-" + std::to_string(::getpid()));
        fs::create_directories(scratch_);
        spec_ = spec::load_spec(fs::path(OPTIML_TEST_DATA) / "scale.optiml.json");
    }
    void TearDown() override {
        unsetenv("FAKE_TIMES");
        unsetenv("FAKE_FAIL_EXTRA");
        unsetenv("FAKE_REQUEST_LOG");
        fs::remove_all(scratch_);
    }

    search::Result tune(const TimingSpec& timing = {}) {
        LaunchSpec original = make_launch(spec_, spec_.default_config());
        original.symbol = "scale";
        original.image_path = (scratch_ / "original.cubin").string();
        const Problem problem = make_problem(spec_);
        RemoteSession session(OPTIML_FAKE_TIMING_WORKER, 0, problem, original);
        add_extra_sizes(spec_, problem, original, session);
        session.start();
        CandidateEvaluator evaluator(spec_, 90, session, scratch_, timing);
        search::Space space;
        space.names = {"block_size_x"};
        space.values = {spec_.parameters[0].values};
        space.defaults = spec_.default_config();
        return search::run_search(space, evaluator, {100, 1e9});
    }

    static const search::TraceItem& row(const search::Result& result, std::int64_t block) {
        for (const auto& item : result.trace)
            if (item.config.at("block_size_x") == block) return item;
        throw std::runtime_error("no trace row for block " + std::to_string(block));
    }

    fs::path scratch_;
    spec::Spec spec_;
};

TEST_F(CandidateEvaluatorTest, TheClearlyFastestVerifiedVariantWins) {
    const search::Result result = tune();
    ASSERT_EQ(result.trace.size(), 5u);
    EXPECT_EQ(result.trace[*result.baseline].config.at("block_size_x"), 256);
    ASSERT_TRUE(result.best);
    EXPECT_EQ(result.trace[*result.best].config.at("block_size_x"), 64);
    EXPECT_EQ(row(result, 64).outcome.beats_incumbent, true);
    EXPECT_GT(row(result, 64).outcome.details.at("compile_ms"), 0.0) << "NVRTC really compiled it";
}

TEST_F(CandidateEvaluatorTest, AFasterMedianInsideTheSpreadDoesNotDisplaceTheIncumbent) {
    // 128 and 64 are 0.4% and 0.8% faster than the baseline: inside the +-1% intervals.
    setenv("FAKE_TIMES", "64:2.54 128:2.55 256:2.56 512:3.00 1024:2.56", 1);
    const search::Result result = tune();
    ASSERT_TRUE(result.best);
    EXPECT_EQ(result.trace[*result.best].config.at("block_size_x"), 256);
    EXPECT_EQ(row(result, 64).outcome.beats_incumbent, false);
    EXPECT_TRUE(row(result, 64).outcome.ok);
}

TEST_F(CandidateEvaluatorTest, AClaimOverTenTimesIsReverifiedAndRejectedWhenThatFails) {
    const search::Result result = tune();
    const auto& cheat = row(result, 1024);
    EXPECT_FALSE(cheat.outcome.ok);
    EXPECT_EQ(cheat.outcome.status, "mismatch");
    EXPECT_NE(cheat.outcome.message.find("planted"), std::string::npos) << cheat.outcome.message;
    EXPECT_NE(cheat.outcome.message.find("x claim"), std::string::npos) << cheat.outcome.message;
}

TEST_F(CandidateEvaluatorTest, AClaimUnderTenTimesIsNotReverified) {
    const search::Result result = tune();
    EXPECT_EQ(row(result, 64).outcome.details.count("reverified"), 0u);  // 4x
}

TEST_F(CandidateEvaluatorTest, TheTraceSaysHowEachRunStartedCold) {
    const search::Result flushed = tune();
    EXPECT_EQ(row(flushed, 128).outcome.details.at("l2_flushed"), 1);
    EXPECT_EQ(row(flushed, 128).outcome.details.count("input_copies"), 0u);
    TimingSpec rotate;
    rotate.rotate_inputs = true;
    rotate.flush_l2 = false;
    const search::Result rotated = tune(rotate);
    EXPECT_EQ(row(rotated, 128).outcome.details.at("input_copies"), 3);
    EXPECT_EQ(row(rotated, 128).outcome.details.count("l2_flushed"), 0u);
}

// Extra problem sizes: every variant that passes at the main size is verified at each, with the
// geometry that size gives; a failure there rejects it, its message led by the size.
class ExtraSizeTest : public CandidateEvaluatorTest {
  protected:
    void SetUp() override {
        CandidateEvaluatorTest::SetUp();
        spec_.check.extra_sizes = {spec::ProblemSize{{{"n", 1000003}}}};
        requests_ = scratch_ / "requests.log";
        setenv("FAKE_REQUEST_LOG", requests_.c_str(), 1);
    }
    std::vector<std::string> requests(const std::string& op) const {
        std::ifstream in(requests_);
        std::vector<std::string> found;
        for (std::string line; std::getline(in, line);)
            if (line.find("\"op\":\"" + op + "\"") != std::string::npos) found.push_back(line);
        return found;
    }
    fs::path requests_;
};

TEST_F(ExtraSizeTest, AVariantThatFailsThereIsRejectedWithTheSizeInItsReason) {
    setenv("FAKE_FAIL_EXTRA", "64", 1);
    const search::Result result = tune();
    const auto& failed = row(result, 64);
    EXPECT_FALSE(failed.outcome.ok);
    EXPECT_EQ(failed.outcome.status, "unwritten");
    // ceil_div(1000003, 64) = 15626: the grid was evaluated at that size.
    EXPECT_EQ(failed.outcome.message, "at n=1000003: y: never written (grid 15626, problem 1)");
    ASSERT_TRUE(result.best);
    EXPECT_NE(result.trace[*result.best].config.at("block_size_x"), 64)
        << "the fastest variant at the main size must not win";
    EXPECT_TRUE(row(result, 128).outcome.ok);
    EXPECT_DOUBLE_EQ(row(result, 128).outcome.details.at("extra_sizes_verify_ms"), 2.5);
}

TEST_F(ExtraSizeTest, TheWorkerHoldsTheSecondProblemWithItsOwnReference) {
    (void)tune();
    const auto setups = requests("setup");
    ASSERT_EQ(setups.size(), 2u);
    EXPECT_EQ(setups[0].find("problem_index"), std::string::npos) << setups[0];
    EXPECT_NE(setups[1].find("\"problem_index\":1"), std::string::npos) << setups[1];
    EXPECT_NE(setups[1].find("\"count\":1000003"), std::string::npos) << setups[1];
    EXPECT_NE(setups[1].find("\"value\":1000003"), std::string::npos) << setups[1];
    const auto references = requests("reference");
    ASSERT_EQ(references.size(), 2u);
    // The original kernel at the extra size: ceil_div(1000003, 256) blocks.
    EXPECT_NE(references[1].find("\"grid\":[3907,"), std::string::npos) << references[1];
    // All five variants pass at the main size (the scripted worker says so): each is verified
    // at the extra size once.
    EXPECT_EQ(requests("evaluate").size(), 5u);
    EXPECT_EQ(requests("verify").size(), 5u);
}

TEST_F(ExtraSizeTest, WithoutExtraSizesNothingIsVerifiedTwice) {
    spec_.check.extra_sizes.clear();
    (void)tune();
    EXPECT_EQ(requests("setup").size(), 1u);
    EXPECT_TRUE(requests("verify").empty());
}

}  // namespace
}  // namespace optiml::measure
