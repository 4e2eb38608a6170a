// The default search on a large recorded space it was not developed on (issue 28): matmul_space,
// 4844 configurations recorded on an H100 with 3 within 2% of the optimum, replayed as tune
// streams it (18 in flight). With bayes and local_bayes alone, seed 4 never came within 2% in
// 1000 evaluations and seed 1 took 672: the model stalled on one region for hundreds of
// evaluations. The reserve that joins a stalled search (portfolio_strategy.cpp) walks out of it.
#include <gtest/gtest.h>

#include <filesystem>

#include "driver/search/recording.h"
#include "driver/search/recording_file.h"
#include "driver/search/search.h"

namespace optiml::search {
namespace {

constexpr double kWithin = 1.02;
constexpr std::size_t kTunesInFlight = 18;

TEST(DefaultSearchOnARecordedLargeSpace, ComesWithin2PercentInTheSeedsTheModelAloneMissed) {
    const Recording recording =
        read_recording(std::filesystem::path(OPTIML_SOURCE_DIR) /
                       "tests/data/h100/spaces/matmul_space.manifest.json.gz");
    ASSERT_EQ(recording.space.enumerate_valid().size(), 4844u);
    const double target = *recording.optimum_ms() * kWithin;
    for (const std::uint64_t seed : {1u, 4u}) {
        ReplayEvaluator evaluator(recording, kTunesInFlight);
        Budget budget{1000, 1e9, "auto"};
        budget.enough = [target](const Result& so_far) {
            return evaluations_until(so_far, target).has_value();
        };
        const Result result = run_search(recording.space, evaluator, budget, {}, seed);
        EXPECT_TRUE(evaluations_until(result, target).has_value())
            << "seed " << seed << ": best in 1000 evaluations "
            << best_after(result, result.trace.size()) << " ms, optimum " << *recording.optimum_ms()
            << " ms";
    }
}

}  // namespace
}  // namespace optiml::search
