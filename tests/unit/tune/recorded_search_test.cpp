// The search against real measurements: the matmul example's committed seed entry holds the
// trace of an exhaustive tuning run on an NVIDIA H200 (recorded by `optiml tune`, see
// examples/matmul/optiml-seed/README.md for how to regenerate it). Replaying it through the
// search must find the same winner, and a random sample must never pick a failed config.
#include <gtest/gtest.h>

#include <fstream>

#include "driver/search/search.h"
#include "driver/spec/spec.h"
#include "driver/tune/tuning.h"

namespace optiml::search {
namespace {
namespace fs = std::filesystem;

nlohmann::json recorded_manifest() {
    const fs::path seed = fs::path(OPTIML_SOURCE_DIR) / "examples/matmul/optiml-seed/entries";
    for (const auto& entry : fs::recursive_directory_iterator(seed))
        if (entry.path().filename() == "manifest.json")
            return nlohmann::json::parse(std::ifstream(entry.path()));
    return {};
}

class RecordedEvaluator : public Evaluator {
  public:
    explicit RecordedEvaluator(const nlohmann::json& trace) {
        for (const auto& row : trace) {
            Outcome o;
            o.status = row.at("status").get<std::string>();
            o.ok = o.status == "ok";
            if (o.ok) o.median_ms = row.at("time_ms").at("median").get<double>();
            recorded_[row.at("parameters").get<Config>()] = o;
        }
    }
    std::vector<Outcome> evaluate(const std::vector<Candidate>& batch) override {
        std::vector<Outcome> outcomes;
        for (const auto& c : batch) outcomes.push_back(recorded_.at(c.parameters));
        return outcomes;
    }

  private:
    std::map<Config, Outcome> recorded_;
};

Space matmul_space() {
    static const spec::Spec spec =
        spec::load_spec(fs::path(OPTIML_SOURCE_DIR) / "examples/matmul/kernels/matmul.optiml.json");
    return tune::tuning_space(spec);
}

TEST(RecordedSearch, ExhaustiveReplayFindsTheRecordedWinner) {
    const nlohmann::json manifest = recorded_manifest();
    ASSERT_TRUE(manifest.contains("trace")) << "no recorded matmul entry in the seed";
    RecordedEvaluator evaluator(manifest["trace"]);
    const Result result = run_search(matmul_space(), evaluator, {1000, 1e9, "exhaustive"});
    EXPECT_EQ(result.strategy, "exhaustive");
    EXPECT_EQ(result.space_size, manifest["search"]["space_size"].get<std::size_t>());
    ASSERT_TRUE(result.best);
    EXPECT_EQ(result.trace[*result.best].candidate.parameters,
              manifest["parameters"].get<Config>());
    const double speedup = result.trace[*result.baseline].outcome.median_ms /
                           result.trace[*result.best].outcome.median_ms;
    EXPECT_NEAR(speedup, manifest["speedup"].get<double>(), 1e-9);
}

TEST(RecordedSearch, ARandomSampleBeatsTheBaselineAndStaysInBudget) {
    const nlohmann::json manifest = recorded_manifest();
    ASSERT_TRUE(manifest.contains("trace"));
    RecordedEvaluator evaluator(manifest["trace"]);
    // auto would model the space now; the random strategy is asked for by name.
    const Result result = run_search(matmul_space(), evaluator, {30, 1e9, "random"}, {}, 3);
    EXPECT_EQ(result.strategy, "random");
    EXPECT_EQ(result.trace.size(), 30u);
    ASSERT_TRUE(result.best);
    EXPECT_TRUE(result.trace[*result.best].outcome.ok);
    EXPECT_LT(result.trace[*result.best].outcome.median_ms,
              result.trace[*result.baseline].outcome.median_ms);
}

}  // namespace
}  // namespace optiml::search
