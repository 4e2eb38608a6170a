// How fast each search strategy gets close to the optimum of recorded spaces, on the CPU.
//   optiml-bench-search-efficiency <recording>... [--seeds N] [--first-seed S] [--budget N]
//       [--random-start] [--fitted]
// Each recording (any format read_recording takes: OptiML recordings and manifests, Kernel
// Tuner cache files, T4 results) is replayed under every strategy with seeds S..S+N-1 (S = 1 unless
// told). Per space it prints the valid configurations, those within 2% of the optimum, and per
// strategy: the median number of evaluations until the best found is within 2% of the optimum, the
// fraction of seeds that got there within the budget, and the median best-found/optimum after 50,
// 100 and 200 evaluations (a run that ended sooner, having measured the whole space, counts its
// final best). With --random-start each seed starts from a valid configuration drawn at random
// instead of the recording's default: a strategy's lead that came from where the default lies
// does not survive it. With --fitted the budget is the one a spec without evaluations gets (fitted
// to the space, stopping once converged: driver/search/budget_fit.h), and two more columns give
// the median evaluations spent and the median final best/optimum.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "driver/search/budget_fit.h"
#include "driver/search/recording_file.h"
#include "driver/search/strategy.h"

using namespace optiml;

namespace {

constexpr double kWithin = 1.02;
constexpr std::size_t kCheckpoints[] = {50, 100, 200};

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

struct Row {
    std::vector<double> evaluations;  // to within 2%; +infinity where a seed never got there
    std::vector<double> ratio_after[std::size(kCheckpoints)];
    std::vector<double> spent;  // evaluations the search made
    std::vector<double> final_ratio;
};

struct Options {
    int seeds = 20;
    // Another block of seeds (21 for 21..40) shows how much a median of 20 owes to the draw.
    int first_seed = 1;
    int budget = 300;
    // Candidates in flight, as tune's streaming pipeline keeps them on the H200 (16 cores:
    // CandidateEvaluator::streaming_depth() = 18); 0: batches of `batch`, without streaming.
    std::size_t in_flight = search::kMaxStreamingDepth;
    std::size_t batch = search::kDefaultBatchSize;
    std::vector<std::string> strategies;  // empty: all
    bool random_start = false;
    bool fitted = false;
};

// The space a seed searches: the recording's, from its default or from a valid configuration
// drawn with the seed (the same start for every strategy).
search::Space start_space(const search::Recording& recording, const Options& options, int seed) {
    search::Space space = recording.space;
    if (!options.random_start) return space;
    const std::vector<search::Config> valid = space.enumerate_valid();
    std::mt19937_64 engine(0x5eedULL * static_cast<std::uint64_t>(seed) + 17);
    space.defaults = valid[std::uniform_int_distribution<std::size_t>(0, valid.size() - 1)(engine)];
    return space;
}

Row measure(const search::Recording& recording, const std::string& strategy,
            const Options& options) {
    const int seeds = options.seeds;
    const int budget = options.budget;
    const double optimum = *recording.optimum_ms();
    Row row;
    for (int seed = options.first_seed; seed < options.first_seed + seeds; ++seed) {
        search::ReplayEvaluator evaluator(recording, options.in_flight);
        const search::Space space = start_space(recording, options, seed);
        search::Budget limits{budget, 1e9, strategy};
        if (options.fitted) {
            limits = search::fitted_budget(space.enumerate_valid().size());
            limits.seconds = 1e9;
            limits.strategy = strategy;
        } else {
            // Past the last checkpoint and within 2%, later evaluations change no column.
            limits.enough = [optimum](const search::Result& so_far) {
                return so_far.trace.size() >= kCheckpoints[std::size(kCheckpoints) - 1] &&
                       search::evaluations_until(so_far, optimum * kWithin).has_value();
            };
        }
        const search::Result result = search::run_search(
            space, evaluator, limits, {}, static_cast<std::uint64_t>(seed), options.batch);
        row.spent.push_back(static_cast<double>(result.trace.size()));
        row.final_ratio.push_back(search::best_after(result, result.trace.size()) / optimum);
        const auto reached = search::evaluations_until(result, optimum * kWithin);
        row.evaluations.push_back(reached ? static_cast<double>(*reached)
                                          : std::numeric_limits<double>::infinity());
        for (std::size_t c = 0; c < std::size(kCheckpoints); ++c)
            row.ratio_after[c].push_back(search::best_after(result, kCheckpoints[c]) / optimum);
    }
    return row;
}

std::string evaluations_text(double evals, int beyond) {
    char text[32];
    if (std::isfinite(evals))
        std::snprintf(text, sizeof(text), "%.1f", evals);
    else
        std::snprintf(text, sizeof(text), "> %d", beyond);
    return text;
}

void report(const search::Recording& recording, const Options& options) {
    const double optimum = *recording.optimum_ms();
    const std::size_t valid = recording.space.enumerate_valid().size();
    std::printf("\n%s (%s%s%s): %s\n",
                recording.kernel.empty() ? "space" : recording.kernel.c_str(),
                recording.format.c_str(), recording.device.empty() ? "" : ", ",
                recording.device.c_str(), recording.file.c_str());
    std::printf(
        "  %zu valid configurations (%zu succeeded), %zu within 2%% of the optimum "
        "%.4g ms; budget %d evaluations, %d seeds\n",
        valid, recording.successes(), recording.within(kWithin), optimum, options.budget,
        options.seeds);
    if (options.fitted)
        std::printf("  fitted budget: %d evaluations, stopping once converged\n",
                    search::fitted_evaluations(valid));
    std::printf("  %-11s %14s %14s %8s %10s %10s %10s%s\n", "strategy", "with baseline",
                "strategy only", "reached", "ratio@50", "ratio@100", "ratio@200",
                options.fitted ? "      spent      final" : "");
    for (const std::string& strategy : search::strategy_names()) {
        if (!options.strategies.empty() &&
            std::find(options.strategies.begin(), options.strategies.end(), strategy) ==
                options.strategies.end())
            continue;
        const Row row = measure(recording, strategy, options);
        // The baseline is always the trace's first evaluation: the strategy chose the others.
        const double evals = median(row.evaluations);
        const auto reached = std::count_if(row.evaluations.begin(), row.evaluations.end(),
                                           [](double e) { return std::isfinite(e); });
        std::printf("  %-11s %14s %14s %7.0f%% %10.4f %10.4f %10.4f", strategy.c_str(),
                    evaluations_text(evals, options.budget).c_str(),
                    evaluations_text(evals - 1, options.budget - 1).c_str(),
                    100.0 * static_cast<double>(reached) / options.seeds,
                    median(row.ratio_after[0]), median(row.ratio_after[1]),
                    median(row.ratio_after[2]));
        if (options.fitted)
            std::printf(" %10.1f %10.4f", median(row.spent), median(row.final_ratio));
        std::printf("\n");
    }
}

std::vector<std::string> split_names(const std::string& text) {
    std::vector<std::string> names;
    std::size_t from = 0;
    while (from <= text.size()) {
        const std::size_t comma = std::min(text.find(',', from), text.size());
        if (comma > from) names.push_back(text.substr(from, comma - from));
        from = comma + 1;
    }
    return names;
}

constexpr const char* kUsage =
    "usage: optiml-bench-search-efficiency <recording>... [--seeds N] [--first-seed S] "
    "[--budget N] [--in-flight N] [--batch N] [--strategies S,...] [--random-start] "
    "[--fitted]\n";

}  // namespace

int main(int argc, char** argv) {
    Options options;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const bool has_value = i + 1 < argc;
        if (!std::strcmp(argv[i], "--seeds") && has_value)
            options.seeds = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--first-seed") && has_value)
            options.first_seed = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--budget") && has_value)
            options.budget = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--in-flight") && has_value)
            options.in_flight = static_cast<std::size_t>(std::max(0, std::atoi(argv[++i])));
        else if (!std::strcmp(argv[i], "--batch") && has_value)
            options.batch = static_cast<std::size_t>(std::max(0, std::atoi(argv[++i])));
        else if (!std::strcmp(argv[i], "--random-start"))
            options.random_start = true;
        else if (!std::strcmp(argv[i], "--fitted"))
            options.fitted = true;
        else if (!std::strcmp(argv[i], "--strategies") && has_value)
            options.strategies = split_names(argv[++i]);
        else if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
            std::printf("%s", kUsage);
            return 0;
        } else if (argv[i][0] == '-') {  // not a file: an option misspelt or missing its value
            std::fprintf(stderr, "optiml: error: %s: unknown option or missing value\n%s", argv[i],
                         kUsage);
            return 2;
        } else
            files.emplace_back(argv[i]);
    }
    if (files.empty() || options.seeds < 1 || options.first_seed < 1 || options.budget < 1 ||
        options.batch < 1) {
        std::fprintf(stderr, "%s", kUsage);
        return 2;
    }
    for (const std::string& name : options.strategies)
        if (std::find(search::strategy_names().begin(), search::strategy_names().end(), name) ==
            search::strategy_names().end()) {
            std::fprintf(stderr, "optiml: error: --strategies: no strategy '%s' (one of: %s)\n",
                         name.c_str(), search::strategy_names_text().c_str());
            return 2;
        }
    std::printf(
        "search efficiency: %d seeds (%d..%d), budget %d evaluations, %s, from %s; evals to 2%% "
        "is the "
        "median over seeds (a seed that never got there counts as more than the budget), counted "
        "with the "
        "baseline (the default configuration, always evaluation 1) and without it (the "
        "strategy's own evaluations)\n",
        options.seeds, options.first_seed, options.first_seed + options.seeds - 1, options.budget,
        search::pipeline_text(options.in_flight, options.batch).c_str(),
        options.random_start ? "a random valid configuration per seed" : "the recording's default");
    for (const std::string& file : files) {
        search::Recording recording;
        try {
            recording = search::read_recording(file);
        } catch (const search::RecordingError& e) {
            std::fprintf(stderr, "optiml: error: %s\n", e.what());
            return 1;
        }
        if (!recording.optimum_ms()) {
            std::fprintf(stderr, "optiml: error: %s: no configuration succeeded\n", file.c_str());
            return 1;
        }
        report(recording, options);
    }
    return 0;
}
