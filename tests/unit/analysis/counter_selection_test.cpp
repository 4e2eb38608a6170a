// Counter selection on constructed data (not recorded): runtime is built from two known counters
// plus noise, hidden among distractors of very different scales.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "driver/analysis/analysis_error.h"
#include "driver/analysis/counter_selection.h"

namespace optiml::analysis {
namespace {

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

// Standard normal numbers from a fixed generator (Box-Muller), identical on every platform.
class Normal {
  public:
    explicit Normal(std::uint64_t seed) : engine_(seed) {}
    double operator()() {
        const double u1 = (static_cast<double>(engine_() >> 11) + 1.0) * 0x1.0p-53;
        const double u2 = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }

  private:
    std::mt19937_64 engine_;
};

// 60 variants, 22 counters: "dram__bytes_read.sum" (more -> slower) and
// "sm__warps_active.avg.pct_of_peak_sustained_active" (more -> faster) drive runtime; 20
// distractors are independent noise on scales from 1e-3 to 1e9.
CounterTable two_true_counters_among_twenty() {
    Normal normal(2024);
    CounterTable table;
    const std::size_t bytes_column = 7;
    const std::size_t occupancy_column = 15;
    for (std::size_t c = 0; c < 22; ++c) {
        if (c == bytes_column) {
            table.counters.push_back("dram__bytes_read.sum");
        } else if (c == occupancy_column) {
            table.counters.push_back("sm__warps_active.avg.pct_of_peak_sustained_active");
        } else {
            table.counters.push_back("distractor_" + std::to_string(c));
        }
    }
    for (std::size_t r = 0; r < 60; ++r) {
        std::vector<double> row(22);
        for (std::size_t c = 0; c < 22; ++c) {
            const double scale = std::pow(10.0, static_cast<double>(c % 13) - 3.0);
            row[c] = scale * (5.0 + normal());
        }
        row[bytes_column] = 1.0e9 * (2.0 + 0.3 * normal());
        row[occupancy_column] = 50.0 + 12.0 * normal();
        const double runtime = 1.0e-3 + 2.0e-4 * (row[bytes_column] / 1.0e9) -
                               1.0e-5 * row[occupancy_column] + 5.0e-6 * normal();
        table.rows.push_back(row);
        table.runtime_s.push_back(runtime);
    }
    return table;
}

std::vector<std::string> names_of(const CounterSelection& selection) {
    std::vector<std::string> names;
    for (const SelectedCounter& counter : selection.counters) names.push_back(counter.name);
    return names;
}

const SelectedCounter* find(const CounterSelection& selection, const std::string& name) {
    for (const SelectedCounter& counter : selection.counters) {
        if (counter.name == name) return &counter;
    }
    return nullptr;
}

TEST(CounterSelection, FindsTheTwoCountersThatDriveRuntime) {
    const CounterSelection selection = select_counters(two_true_counters_among_twenty());
    ASSERT_EQ(selection.counters.size(), 3u);
    const SelectedCounter* bytes = find(selection, "dram__bytes_read.sum");
    const SelectedCounter* occupancy =
        find(selection, "sm__warps_active.avg.pct_of_peak_sustained_active");
    ASSERT_NE(bytes, nullptr);
    ASSERT_NE(occupancy, nullptr);
    EXPECT_GT(selection.r_squared, 0.9);
    EXPECT_EQ(bytes->sign, 1);
    EXPECT_EQ(occupancy->sign, -1);
    EXPECT_DOUBLE_EQ(bytes->frequency, 1.0);
    EXPECT_DOUBLE_EQ(occupancy->frequency, 1.0);
    // The true counters come first and carry almost all of the fit; the third is a distractor.
    EXPECT_EQ(selection.counters[0].id, "counter-1");
    EXPECT_EQ(selection.counters[2].id, "counter-3");
    EXPECT_EQ(selection.counters[2].name.rfind("distractor_", 0), 0u);
    EXPECT_LT(selection.counters[2].unique_r_squared, 0.05);
    EXPECT_GT(bytes->unique_r_squared, 0.1);
    EXPECT_GT(occupancy->unique_r_squared, 0.1);
    EXPECT_EQ(selection.variants, 60u);
    EXPECT_NE(bytes->description.find("DRAM"), std::string::npos);
}

TEST(CounterSelection, RandomizedRunsDisagreeOnlyAboutTheNoise) {
    const CounterTable table = two_true_counters_among_twenty();
    const CounterSelection ensemble = select_counters(table);
    ASSERT_EQ(ensemble.counters.size(), 3u);
    EXPECT_LT(ensemble.counters[2].frequency, 1.0);  // runs pick different distractors last
    EXPECT_EQ(ensemble.runs, 64u);

    SelectionOptions greedy;
    greedy.top_candidates = 1;  // every run is plain orthogonal matching pursuit
    const CounterSelection plain = select_counters(table, greedy);
    for (const SelectedCounter& counter : plain.counters) EXPECT_DOUBLE_EQ(counter.frequency, 1.0);
    EXPECT_EQ(plain.counters[0].name, ensemble.counters[0].name);
    EXPECT_EQ(plain.counters[1].name, ensemble.counters[1].name);
}

TEST(CounterSelection, SameSeedSameResultOtherSeedsSameTrueCounters) {
    const CounterTable table = two_true_counters_among_twenty();
    const CounterSelection first = select_counters(table);
    const CounterSelection second = select_counters(table);
    ASSERT_EQ(names_of(first), names_of(second));
    EXPECT_EQ(first.r_squared, second.r_squared);
    for (std::size_t i = 0; i < first.counters.size(); ++i) {
        EXPECT_EQ(first.counters[i].coefficient, second.counters[i].coefficient);
        EXPECT_EQ(first.counters[i].frequency, second.counters[i].frequency);
    }
    for (std::uint64_t seed : {7u, 99u, 12345u}) {
        SelectionOptions options;
        options.seed = seed;
        const CounterSelection other = select_counters(table, options);
        EXPECT_NE(find(other, "dram__bytes_read.sum"), nullptr) << seed;
        EXPECT_NE(find(other, "sm__warps_active.avg.pct_of_peak_sustained_active"), nullptr)
            << seed;
    }
}

TEST(CounterSelection, DropsConstantAndMostlyMissingCountersAndImputesRareGaps) {
    CounterTable table = two_true_counters_among_twenty();
    table.counters.push_back("launch__registers_per_thread");
    table.counters.push_back("lts__t_sectors.sum");
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        table.rows[r].push_back(32.0);                                            // constant
        table.rows[r].push_back(r % 4 == 0 ? static_cast<double>(r) : kMissing);  // 75% missing
    }
    table.rows[5][7] = kMissing;  // one gap in a true counter
    table.rows[9][15] = std::numeric_limits<double>::infinity();
    const CounterSelection selection = select_counters(table);
    ASSERT_EQ(selection.dropped.size(), 2u);
    EXPECT_EQ(selection.dropped[0].name, "launch__registers_per_thread");
    EXPECT_EQ(selection.dropped[0].reason, "constant");
    EXPECT_EQ(selection.dropped[1].name, "lts__t_sectors.sum");
    EXPECT_EQ(selection.dropped[1].reason, "mostly missing");
    EXPECT_NE(find(selection, "dram__bytes_read.sum"), nullptr);
    EXPECT_NE(find(selection, "sm__warps_active.avg.pct_of_peak_sustained_active"), nullptr);
    EXPECT_GT(selection.r_squared, 0.9);
}

TEST(CounterSelection, RowsWithoutRuntimeAreLeftOut) {
    CounterTable table = two_true_counters_among_twenty();
    table.runtime_s[3] = kMissing;
    const CounterSelection selection = select_counters(table);
    EXPECT_EQ(selection.variants, 59u);
    EXPECT_NE(selection.note.find("1 variant(s) without a runtime"), std::string::npos);
    EXPECT_NE(find(selection, "dram__bytes_read.sum"), nullptr);
}

TEST(CounterSelection, FewerVariantsThanCountersFitsAtMostVariantsMinusTwo) {
    CounterTable table = two_true_counters_among_twenty();
    table.rows.resize(4);
    table.runtime_s.resize(4);
    const CounterSelection selection = select_counters(table);
    EXPECT_EQ(selection.counters.size(), 2u);
    EXPECT_NE(selection.note.find("Chose 2 of the 3"), std::string::npos) << selection.note;

    table.rows.resize(2);
    table.runtime_s.resize(2);
    const CounterSelection too_few = select_counters(table);
    EXPECT_TRUE(too_few.counters.empty());
    EXPECT_NE(too_few.note.find("at least 3 variants"), std::string::npos);
}

TEST(CounterSelection, NeverKeepsTwoCopiesOfTheSameCounter) {
    CounterTable table = two_true_counters_among_twenty();
    table.counters.push_back("dram__bytes.sum");
    for (std::vector<double>& row : table.rows) row.push_back(row[7] * 2.0);  // a scaled copy
    SelectionOptions options;
    options.k = 4;
    const CounterSelection selection = select_counters(table, options);
    const bool original = find(selection, "dram__bytes_read.sum") != nullptr;
    const bool copy = find(selection, "dram__bytes.sum") != nullptr;
    EXPECT_TRUE(original != copy) << "exactly one of the two identical counters is kept";
    EXPECT_GT(selection.r_squared, 0.9);
}

TEST(CounterSelection, ConstantRuntimeHasNothingToExplain) {
    CounterTable table = two_true_counters_among_twenty();
    std::fill(table.runtime_s.begin(), table.runtime_s.end(), 1.0e-3);
    const CounterSelection selection = select_counters(table);
    EXPECT_TRUE(selection.counters.empty());
    EXPECT_NE(selection.note.find("same for every variant"), std::string::npos);
}

TEST(CounterSelection, RejectsMisshapenTablesAndOptions) {
    CounterTable table = two_true_counters_among_twenty();
    table.rows[1].pop_back();
    try {
        select_counters(table);
        FAIL() << "expected AnalysisError";
    } catch (const AnalysisError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("rows[1]"), std::string::npos) << message;
        EXPECT_NE(message.find("one value per counter"), std::string::npos) << message;
    }
    CounterTable short_runtime = two_true_counters_among_twenty();
    short_runtime.runtime_s.pop_back();
    EXPECT_THROW(select_counters(short_runtime), AnalysisError);
    CounterTable duplicate = two_true_counters_among_twenty();
    duplicate.counters[1] = duplicate.counters[0];
    EXPECT_THROW(select_counters(duplicate), AnalysisError);
    SelectionOptions no_counters;
    no_counters.k = 0;
    EXPECT_THROW(select_counters(two_true_counters_among_twenty(), no_counters), AnalysisError);
}

TEST(CounterSelection, DescribesKnownDerivedAndUnknownCounters) {
    EXPECT_NE(
        describe_counter("sm__warps_active.avg.pct_of_peak_sustained_active").find("occupancy"),
        std::string::npos);
    EXPECT_NE(describe_counter("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum").find("fp32"),
              std::string::npos);
    const std::string stall =
        describe_counter("smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio");
    EXPECT_NE(stall.find("__syncthreads"), std::string::npos) << stall;
    const std::string rollup = describe_counter("dram__bytes_read.sum.per_second");
    EXPECT_NE(rollup.find("device memory"), std::string::npos) << rollup;
    EXPECT_NE(describe_counter("made__up.sum").find("not in OptiML's description table"),
              std::string::npos);
}

}  // namespace
}  // namespace optiml::analysis
