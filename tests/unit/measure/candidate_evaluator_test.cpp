// The evaluator's decisions, end to end on the driver's side: a real spec, real NVRTC compiles,
// the real search, and a scripted worker (fake_timing_worker.sh) whose times depend on the
// block size. What is checked: a challenger replaces the incumbent only beyond the measured
// spread; a claim over 10x is verified again and rejected when that fails; the original
// configuration is the baseline.
#include "driver/tune/candidate_evaluator.h"

#include <gtest/gtest.h>

#include "driver/base/read_file.h"
#include "driver/search/candidate_json.h"

#include <cstdlib>
#include <fstream>
#include <memory>
#include <set>

namespace optiml::measure {
using identity::make_compile_request;
using tune::add_extra_sizes;
using tune::CandidateEvaluator;
using tune::make_compile_request;
using tune::make_launch;
using tune::write_launch;
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
        for (const char* name :
             {"FAKE_TIMES", "FAKE_FAIL_EXTRA", "FAKE_REQUEST_LOG", "FAKE_FAIL_MAIN", "FAKE_CRASH",
              "FAKE_VERIFY_LOG", "FAKE_TIMED_LOG"})
            unsetenv(name);
        session_.reset();
        fs::remove_all(scratch_);
    }

    LaunchSpec original_launch() const {
        LaunchSpec original = make_launch(spec_, spec_.default_config());
        original.symbol = "scale";
        original.image_path = (scratch_ / "original.cubin").string();
        return original;
    }

    // A started scripted worker, for evaluate() called directly.
    RemoteSession& session() {
        session_ = std::make_unique<RemoteSession>(OPTIML_FAKE_TIMING_WORKER, 0,
                                                   make_problem(spec_), original_launch());
        session_->start();
        return *session_;
    }

    // `gpus` > 1: that many scripted workers (devices 0, 1, ...) verify through a VerifierPool;
    // device 0 times.
    search::Result tune(const TimingSpec& timing = {}, int gpus = 1, bool streaming = true) {
        const LaunchSpec original = original_launch();
        const Problem problem = make_problem(spec_);
        RemoteSession session(OPTIML_FAKE_TIMING_WORKER, 0, problem, original);
        add_extra_sizes(spec_, problem, original, session);
        session.start();
        std::vector<std::unique_ptr<RemoteSession>> others;
        for (int device = 1; device < gpus; ++device) {
            others.push_back(std::make_unique<RemoteSession>(OPTIML_FAKE_TIMING_WORKER, device,
                                                             problem, original));
            add_extra_sizes(spec_, problem, original, *others.back());
        }
        VerifierPool pool(session, std::move(others));
        if (!pool.start().empty()) throw std::runtime_error("a scripted worker did not start");
        CandidateEvaluator evaluator(spec_, 90, session, scratch_, timing);
        if (gpus > 1) evaluator.set_verifier_pool(&pool);
        evaluator.set_streaming(streaming);
        search::Space space;
        space.names = {"block_size_x"};
        space.values = {spec_.parameters[0].values};
        space.defaults = spec_.default_config();
        return search::run_search(space, evaluator, {100, 1e9});
    }

    static const search::TraceItem& row(const search::Result& result, std::int64_t block) {
        for (const auto& item : result.trace)
            if (item.candidate.parameters.at("block_size_x") == block) return item;
        throw std::runtime_error("no trace row for block " + std::to_string(block));
    }

    static std::vector<std::string> lines(const fs::path& file) {
        std::ifstream in(file);
        std::vector<std::string> found;
        for (std::string line; std::getline(in, line);) found.push_back(line);
        return found;
    }

    fs::path scratch_;
    spec::Spec spec_;
    std::unique_ptr<RemoteSession> session_;
};

// A candidate whose rewrite changed the grid is launched with its own grid, at the spec's size and
// at each extra size; its block is the spec's, from its parameters. The trace keeps the grid.
TEST_F(CandidateEvaluatorTest, ACandidateWithItsOwnGridIsLaunchedWithIt) {
    search::Candidate candidate(spec_.default_config());
    const LaunchSpec plain = make_launch(spec_, candidate);
    candidate.grid = {"(" + spec_.launch.grid[0].text() + ") * 32", "1", "1"};
    const LaunchSpec own = make_launch(spec_, candidate);
    EXPECT_EQ(own.grid[0], plain.grid[0] * 32);
    EXPECT_EQ(own.block[0], plain.block[0]);
    const spec::ProblemSize extra{{{"n", 1000003}}};
    EXPECT_EQ(make_launch(spec_, candidate, &extra).grid[0], (1000003 + 255) / 256 * 32);
    nlohmann::json row;
    search::write_candidate(candidate, row);
    EXPECT_EQ(search::read_candidate(row), candidate);
    candidate.grid.pop_back();
    EXPECT_THROW(make_launch(spec_, candidate), std::invalid_argument);
}

// A candidate is its source as much as its parameters: each is compiled from its own text.
TEST_F(CandidateEvaluatorTest, CandidatesOfOneConfigurationButOtherSourcesAreOtherVariants) {
    CandidateEvaluator evaluator(spec_, 90, session(), scratch_, {});
    const std::string text = base::read_file(spec_.source);
    std::string rewritten = text;
    rewritten.replace(rewritten.find("2.0f * x[i]"), 11, "3.0f * x[i]");
    const search::Config defaults = spec_.default_config();
    const search::Candidate plain{defaults};
    const search::Candidate derived{defaults, evaluator.sources().add(rewritten), {"triple"}, {}};
    const search::Candidate broken{
        defaults, evaluator.sources().add(text + "\nthis does not compile\n"), {"planted"}, {}};
    const search::Candidate capped{defaults, "", {}, {"-maxrregcount=32"}};
    ASSERT_NE(derived.source_id, broken.source_id);

    const auto outcomes = evaluator.evaluate({plain, derived, broken, capped});
    EXPECT_TRUE(outcomes[0].ok) << outcomes[0].message;
    EXPECT_TRUE(outcomes[1].ok) << outcomes[1].message;
    EXPECT_EQ(outcomes[2].status, "compile_error");
    EXPECT_NE(outcomes[2].message.find("this does not compile"), std::string::npos);
    EXPECT_TRUE(outcomes[3].ok) << outcomes[3].message;
    ASSERT_TRUE(evaluator.compiled(plain) && evaluator.compiled(derived));
    EXPECT_TRUE(evaluator.compiled(plain)->binary != evaluator.compiled(derived)->binary)
        << "the derived text must reach NVRTC, not the spec's source";
    EXPECT_EQ(search::format_candidate(derived),
              "block_size_x=256 [source " + derived.source_id.substr(0, 8) + ": triple]");
    EXPECT_EQ(search::format_candidate(capped), "block_size_x=256 [-maxrregcount=32]");
    EXPECT_THROW(evaluator.evaluate({search::Candidate{defaults, "unknown", {}, {}}}),
                 std::out_of_range);
}

// An option that changes no code gives the image already measured: that variant takes the
// measurement and no turn on the GPU. The same image launched on another grid is timed.
TEST_F(CandidateEvaluatorTest, AVariantWithAnImageAlreadyMeasuredIsNotTimedAgain) {
    setenv("FAKE_TIMED_LOG", (scratch_ / "timed.log").c_str(), 1);
    CandidateEvaluator evaluator(spec_, 90, session(), scratch_, {});
    const search::Config defaults = spec_.default_config();
    const search::Candidate plain{defaults};
    const search::Candidate unused_macro{defaults, "", {}, {"-DOPTIML_UNUSED_MACRO=1"}};
    search::Candidate regridded{defaults, "", {}, {"-DOPTIML_UNUSED_MACRO=2"}};
    regridded.grid = {"ceil_div(n, block_size_x) * 2", "1", "1"};

    const search::Outcome first = evaluator.evaluate({plain}).front();
    const auto later = evaluator.evaluate({unused_macro, regridded});
    ASSERT_TRUE(first.ok && later[0].ok && later[1].ok);
    ASSERT_EQ(evaluator.compiled(plain)->binary, evaluator.compiled(unused_macro)->binary);
    ASSERT_EQ(evaluator.compiled(plain)->binary, evaluator.compiled(regridded)->binary);

    EXPECT_EQ(lines(scratch_ / "timed.log"),
              (std::vector<std::string>{"0 256 unverified", "0 256 unverified"}))
        << "the plain variant and the regridded one, not the unused macro's";
    EXPECT_EQ(later[0].details.same_image_as, plain);
    EXPECT_DOUBLE_EQ(later[0].median_ms, first.median_ms);
    EXPECT_EQ(later[0].beats_incumbent, false);
    EXPECT_FALSE(later[0].details.timing_ms.has_value()) << "it spent no time on the GPU";
    EXPECT_FALSE(later[1].details.same_image_as.has_value());
    nlohmann::json row = search::details_json(later[0].details);
    EXPECT_EQ(row["same_image_as"]["parameters"]["block_size_x"], 256);
}

TEST_F(CandidateEvaluatorTest, TheClearlyFastestVerifiedVariantWins) {
    const search::Result result = tune();
    ASSERT_EQ(result.trace.size(), 5u);
    EXPECT_EQ(result.trace[*result.baseline].candidate.parameters.at("block_size_x"), 256);
    ASSERT_TRUE(result.best);
    EXPECT_EQ(result.trace[*result.best].candidate.parameters.at("block_size_x"), 64);
    EXPECT_EQ(row(result, 64).outcome.beats_incumbent, true);
    EXPECT_GT(row(result, 64).outcome.details.compile_ms.value(), 0.0)
        << "NVRTC really compiled it";
}

TEST_F(CandidateEvaluatorTest, AFasterMedianInsideTheSpreadDoesNotDisplaceTheIncumbent) {
    // 128 and 64 are 0.4% and 0.8% faster than the baseline: inside the +-1% intervals.
    setenv("FAKE_TIMES", "64:2.54 128:2.55 256:2.56 512:3.00 1024:2.56", 1);
    const search::Result result = tune();
    ASSERT_TRUE(result.best);
    EXPECT_EQ(result.trace[*result.best].candidate.parameters.at("block_size_x"), 256);
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
    EXPECT_EQ(row(result, 64).outcome.details.reverified, false);  // 4x
}

TEST_F(CandidateEvaluatorTest, TheTraceSaysHowEachRunStartedCold) {
    const search::Result flushed = tune();
    EXPECT_EQ(row(flushed, 128).outcome.details.l2_flushed, true);
    EXPECT_EQ(row(flushed, 128).outcome.details.input_copies.has_value(), false);
    TimingSpec rotate;
    rotate.rotate_inputs = true;
    rotate.flush_l2 = false;
    const search::Result rotated = tune(rotate);
    EXPECT_EQ(row(rotated, 128).outcome.details.input_copies.value(), 3);
    EXPECT_EQ(row(rotated, 128).outcome.details.l2_flushed, false);
}

// Several GPUs: verification spread over them, timing on the first, the decisions those of one
// GPU. Scripted: 512 fails verification at the main size, 128 kills the worker verifying it.
class SeveralGpusTest : public CandidateEvaluatorTest {
  protected:
    void SetUp() override {
        CandidateEvaluatorTest::SetUp();
        setenv("FAKE_FAIL_MAIN", "512", 1);
        setenv("FAKE_CRASH", "128", 1);
    }
};

// Everything the search decides from: which variants passed, why the others failed, their
// times, which won against the incumbent, and so the best and the baseline.
void expect_same_decisions(const search::Result& one_gpu, const search::Result& several) {
    ASSERT_EQ(one_gpu.trace.size(), several.trace.size());
    for (std::size_t i = 0; i < one_gpu.trace.size(); ++i) {
        const auto& a = one_gpu.trace[i];
        const auto& b = several.trace[i];
        SCOPED_TRACE(search::format_config(a.candidate.parameters));
        EXPECT_EQ(a.candidate.parameters, b.candidate.parameters);
        EXPECT_EQ(a.outcome.ok, b.outcome.ok);
        EXPECT_EQ(a.outcome.status, b.outcome.status);
        EXPECT_EQ(a.outcome.message, b.outcome.message);
        EXPECT_EQ(a.outcome.beats_incumbent, b.outcome.beats_incumbent);
        EXPECT_DOUBLE_EQ(a.outcome.median_ms, b.outcome.median_ms);
        EXPECT_EQ(a.outcome.details.reverified, b.outcome.details.reverified);
    }
    EXPECT_EQ(one_gpu.best, several.best);
    EXPECT_EQ(one_gpu.baseline, several.baseline);
}

// One GPU in batches, as the pool takes them: streaming results come in the order compiles end.
TEST_F(SeveralGpusTest, TheDecisionsAreThoseOfOneGpu) {
    const search::Result one_gpu = tune({}, 1, /*streaming=*/false);
    const search::Result two_gpus = tune({}, 2);
    expect_same_decisions(one_gpu, two_gpus);
    // The scripted verdicts really happened, on both paths alike.
    EXPECT_EQ(row(two_gpus, 512).outcome.status, "mismatch");
    EXPECT_EQ(row(two_gpus, 128).outcome.status, "worker_died");
    EXPECT_EQ(row(two_gpus, 1024).outcome.status, "mismatch") << "the >10x claim re-verified";
    ASSERT_TRUE(two_gpus.best);
    EXPECT_EQ(two_gpus.trace[*two_gpus.best].candidate.parameters.at("block_size_x"), 64);
    for (const auto& item : two_gpus.trace) {
        const double device = item.outcome.details.verified_on_device.value();
        EXPECT_TRUE(device == 0 || device == 1) << device;
    }
    for (const auto& item : one_gpu.trace)
        EXPECT_EQ(item.outcome.details.verified_on_device.has_value(), false);
}

TEST_F(SeveralGpusTest, TheFirstGpuTimesOnlyWhatThePoolPassedWithoutVerifyingItAgain) {
    setenv("FAKE_TIMED_LOG", (scratch_ / "timed.log").c_str(), 1);
    setenv("FAKE_VERIFY_LOG", (scratch_ / "verified.log").c_str(), 1);
    const search::Result result = tune({}, 2);
    // 256 is the baseline (its own batch), then 64, 128, 512, 1024 in one batch.
    const std::vector<std::string> timed{"0 256 verified", "0 64 verified", "0 1024 verified"};
    EXPECT_EQ(lines(scratch_ / "timed.log"), timed);
    std::multiset<std::string> blocks;
    for (const auto& line : lines(scratch_ / "verified.log")) {
        const auto space = line.find(' ');
        const std::string device = line.substr(0, space);
        EXPECT_TRUE(device == "0" || device == "1") << line;
        blocks.insert(line.substr(space + 1));
    }
    EXPECT_EQ(blocks, (std::multiset<std::string>{"64", "128", "256", "512", "1024"}))
        << "each variant verified once, at the main size";
    EXPECT_GT(row(result, 64).outcome.details.verify_ms.value(), 0.0)
        << "the verifying GPU's verification time is kept";
}

TEST_F(SeveralGpusTest, WithoutAPoolTheWorkerVerifiesAsItTimes) {
    setenv("FAKE_TIMED_LOG", (scratch_ / "timed.log").c_str(), 1);
    setenv("FAKE_VERIFY_LOG", (scratch_ / "verified.log").c_str(), 1);
    (void)tune();
    // The baseline first; the others in the order their compiles end (streaming).
    const std::vector<std::string> timed = lines(scratch_ / "timed.log");
    ASSERT_FALSE(timed.empty());
    EXPECT_EQ(timed.front(), "0 256 unverified");
    EXPECT_EQ(std::multiset<std::string>(timed.begin(), timed.end()),
              (std::multiset<std::string>{"0 256 unverified", "0 64 unverified", "0 128 unverified",
                                          "0 512 unverified", "0 1024 unverified"}));
    EXPECT_TRUE(lines(scratch_ / "verified.log").empty());
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
    EXPECT_NE(result.trace[*result.best].candidate.parameters.at("block_size_x"), 64)
        << "the fastest variant at the main size must not win";
    EXPECT_TRUE(row(result, 128).outcome.ok);
    EXPECT_DOUBLE_EQ(row(result, 128).outcome.details.extra_sizes_verify_ms.value(), 2.5);
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

TEST_F(ExtraSizeTest, SeveralGpusVerifyEverySizeAndRejectWhatOneGpuRejects) {
    setenv("FAKE_FAIL_EXTRA", "64", 1);
    const search::Result one_gpu = tune({}, 1, /*streaming=*/false);
    fs::remove(requests_);
    const search::Result two_gpus = tune({}, 2);
    expect_same_decisions(one_gpu, two_gpus);
    EXPECT_EQ(row(two_gpus, 64).outcome.message,
              "at n=1000003: y: never written (grid 15626, problem 1)");
    EXPECT_DOUBLE_EQ(row(two_gpus, 128).outcome.details.extra_sizes_verify_ms.value(), 2.5);
    EXPECT_EQ(requests("setup").size(), 4u) << "both workers hold both problem sizes";
    // 64 fails at the extra size: verified there, never timed.
    EXPECT_EQ(requests("verify").size(), 10u);
    EXPECT_EQ(requests("evaluate").size(), 4u);
}

TEST_F(ExtraSizeTest, WithoutExtraSizesNothingIsVerifiedTwice) {
    spec_.check.extra_sizes.clear();
    (void)tune();
    EXPECT_EQ(requests("setup").size(), 1u);
    EXPECT_TRUE(requests("verify").empty());
}

}  // namespace
}  // namespace optiml::measure
