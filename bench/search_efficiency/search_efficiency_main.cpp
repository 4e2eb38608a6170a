// How fast each search strategy gets close to the optimum of recorded spaces, on the CPU.
//   optiml-bench-search-efficiency <recording>... [--seeds N] [--budget N]
// Each recording (any format read_recording takes: OptiML recordings and manifests, Kernel
// Tuner cache files, T4 results) is replayed under every strategy with seeds 1..N. Per space it
// prints the valid configurations, those within 2% of the optimum, and per strategy: the median
// number of evaluations until the best found is within 2% of the optimum, the fraction of seeds
// that got there within the budget, and the median best-found/optimum after 50, 100 and 200
// evaluations (a run that ended sooner, having measured the whole space, counts its final best).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

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
};

Row measure(const search::Recording& recording, const std::string& strategy, int seeds,
            int budget) {
    const double optimum = *recording.optimum_ms();
    Row row;
    for (int seed = 1; seed <= seeds; ++seed) {
        search::ReplayEvaluator evaluator(recording);
        const search::Result result =
            search::run_search(recording.space, evaluator, {budget, 1e9, strategy}, {},
                               static_cast<std::uint64_t>(seed));
        const auto reached = search::evaluations_until(result, optimum * kWithin);
        row.evaluations.push_back(reached ? static_cast<double>(*reached)
                                          : std::numeric_limits<double>::infinity());
        for (std::size_t c = 0; c < std::size(kCheckpoints); ++c)
            row.ratio_after[c].push_back(search::best_after(result, kCheckpoints[c]) / optimum);
    }
    return row;
}

void report(const search::Recording& recording, int seeds, int budget) {
    const double optimum = *recording.optimum_ms();
    const std::size_t valid = recording.space.enumerate_valid().size();
    std::printf("\n%s (%s%s%s): %s\n",
                recording.kernel.empty() ? "space" : recording.kernel.c_str(),
                recording.format.c_str(), recording.device.empty() ? "" : ", ",
                recording.device.c_str(), recording.file.c_str());
    std::printf(
        "  %zu valid configurations (%zu succeeded), %zu within 2%% of the optimum "
        "%.4g ms; budget %d evaluations, %d seeds\n",
        valid, recording.successes(), recording.within(kWithin), optimum, budget, seeds);
    std::printf("  %-11s %14s %8s %10s %10s %10s\n", "strategy", "evals to 2%", "reached",
                "ratio@50", "ratio@100", "ratio@200");
    for (const std::string& strategy : search::strategy_names()) {
        const Row row = measure(recording, strategy, seeds, budget);
        const double evals = median(row.evaluations);
        const auto reached = std::count_if(row.evaluations.begin(), row.evaluations.end(),
                                           [](double e) { return std::isfinite(e); });
        char evals_text[32];
        if (std::isfinite(evals))
            std::snprintf(evals_text, sizeof(evals_text), "%.1f", evals);
        else
            std::snprintf(evals_text, sizeof(evals_text), "> %d", budget);
        std::printf("  %-11s %14s %7.0f%% %10.4f %10.4f %10.4f\n", strategy.c_str(), evals_text,
                    100.0 * static_cast<double>(reached) / seeds, median(row.ratio_after[0]),
                    median(row.ratio_after[1]), median(row.ratio_after[2]));
    }
}

}  // namespace

int main(int argc, char** argv) {
    int seeds = 20;
    int budget = 300;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--seeds") && i + 1 < argc)
            seeds = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--budget") && i + 1 < argc)
            budget = std::atoi(argv[++i]);
        else
            files.emplace_back(argv[i]);
    }
    if (files.empty() || seeds < 1 || budget < 1) {
        std::fprintf(stderr,
                     "usage: optiml-bench-search-efficiency <recording>... [--seeds N] "
                     "[--budget N]\n");
        return 2;
    }
    std::printf(
        "search efficiency: %d seeds, budget %d evaluations; evals to 2%% is the median "
        "over seeds (a seed that never got there counts as more than the budget)\n",
        seeds, budget);
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
        report(recording, seeds, budget);
    }
    return 0;
}
