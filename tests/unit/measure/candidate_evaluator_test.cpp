// The evaluator's decisions, end to end on the driver's side: a real spec, real NVRTC compiles,
// the real search, and a scripted worker (fake_timing_worker.sh) whose times depend on the
// block size. What is checked: a challenger replaces the incumbent only beyond the measured
// spread; a claim over 10x is verified again and rejected when that fails; the original
// configuration is the baseline.
#include "driver/measure/candidate_evaluator.h"

#include <gtest/gtest.h>

#include <cstdlib>

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
        fs::remove_all(scratch_);
    }

    search::Result tune() {
        LaunchSpec original = make_launch(spec_, spec_.default_config());
        original.symbol = "scale";
        original.image_path = (scratch_ / "original.cubin").string();
        RemoteSession session(OPTIML_FAKE_TIMING_WORKER, 0, make_problem(spec_), original);
        session.start();
        CandidateEvaluator evaluator(spec_, 90, session, scratch_, TimingSpec{});
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

}  // namespace
}  // namespace optiml::measure
