#include "driver/cli/replay_run.h"

#include <cstdio>
#include <stdexcept>

#include "driver/base/format.h"
#include "driver/search/recording_file.h"

namespace optiml::cli {
int run_replay(const ReplayOptions& options, std::ostream& out, std::ostream& err) {
    search::Recording recording;
    try {
        recording = search::read_recording(options.recording);
    } catch (const search::RecordingError& e) {
        err << "optiml: error: " << e.what() << "\n";
        return 1;
    }
    const auto optimum = recording.optimum_ms();
    out << "optiml: replay of " << recording.file << " (" << recording.format;
    if (!recording.kernel.empty()) out << ", " << recording.kernel;
    if (!recording.device.empty()) out << " on " << recording.device;
    out << "): " << recording.records.size() << " configurations recorded, "
        << recording.successes() << " succeeded, " << recording.within(1.02)
        << " within 2% of the optimum\n";
    if (!optimum) {
        err << "optiml: error: " << recording.file << ": no configuration succeeded\n";
        return 1;
    }

    search::ReplayEvaluator evaluator(recording, options.in_flight);
    search::Result result;
    try {
        result = search::run_search(recording.space, evaluator,
                                    {options.evaluations, 1e9, options.strategy}, {}, options.seed);
    } catch (const std::invalid_argument& e) {
        err << "optiml: error: --strategy: " << e.what() << "\n";
        return 1;
    }
    out << "optiml: strategy " << result.strategy
        << (options.strategy == result.strategy ? "" : " (chosen by " + options.strategy + ")")
        << ", seed " << options.seed << ", " << result.trace.size() << " evaluations (budget "
        << options.evaluations << "), "
        << search::pipeline_text(options.in_flight, search::kDefaultBatchSize) << "\n";
    if (!result.best) {
        out << "optiml: no successful configuration found\n";
        return 0;
    }
    const auto& best = result.trace[*result.best];
    char ratio[32];
    std::snprintf(ratio, sizeof(ratio), "%.4f", best.outcome.median_ms / *optimum);
    out << "optiml: best found " << base::format::milliseconds(best.outcome.median_ms) << " ("
        << search::format_candidate(best.candidate) << "), recorded optimum "
        << base::format::milliseconds(*optimum) << ": ratio " << ratio << "\n";
    if (const auto within = search::evaluations_until(result, *optimum * 1.02))
        out << "optiml: within 2% of the optimum after " << *within << " evaluations\n";
    else
        out << "optiml: never within 2% of the optimum in " << result.trace.size()
            << " evaluations\n";
    return 0;
}

}  // namespace optiml::cli
