#include "driver/cli/replay_run.h"

#include <cstdio>
#include <stdexcept>

#include "driver/base/atomic_write.h"
#include "driver/base/format.h"
#include "driver/cli/strategy_option.h"
#include "driver/search/recording_file.h"
#include "driver/search/replay_trace.h"

namespace optiml::cli {
namespace {

std::string baseline_origin(search::BaselineSource source) {
    switch (source) {
        case search::BaselineSource::recording:
            return "the recording's default";
        case search::BaselineSource::first_recorded:
            return "the recording names no default: its first configuration, parameters sorted by "
                   "name, each at its smallest recorded value first; --baseline names another";
        case search::BaselineSource::named:
            return "from --baseline";
    }
    return "";
}

std::string recorded_outcome(const search::Recording& recording, const search::Config& config) {
    const auto found = recording.records.find(config);
    if (found == recording.records.end()) return "not recorded";
    if (!found->second.ok) return "recorded as " + found->second.status;
    return base::format::milliseconds(found->second.median_ms);
}

// The best found against the recording's optimum, and after how many evaluations it came within
// 2% of it.
void print_summary(const search::Result& result, double optimum, std::ostream& out) {
    if (!result.best) {
        out << "optiml: no successful configuration found\n";
        return;
    }
    const auto& best = result.trace[*result.best];
    char ratio[32];
    std::snprintf(ratio, sizeof(ratio), "%.4f", best.outcome.median_ms / optimum);
    out << "optiml: best found " << base::format::milliseconds(best.outcome.median_ms) << " ("
        << search::format_candidate(best.candidate) << "), recorded optimum "
        << base::format::milliseconds(optimum) << ": ratio " << ratio << "\n";
    if (const auto within = search::evaluations_until(result, optimum * 1.02))
        out << "optiml: within 2% of the optimum after " << *within << " evaluations\n";
    else
        out << "optiml: never within 2% of the optimum in " << result.trace.size()
            << " evaluations\n";
}

}  // namespace

int run_replay(const ReplayOptions& options, std::ostream& out, std::ostream& err) {
    if (const std::string wrong = strategy_name_error(options.strategy); !wrong.empty()) {
        err << "optiml: error: --strategy: " << wrong << "\n";
        return 1;
    }
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
    if (!options.baseline.empty()) {
        try {
            recording.space.defaults = search::recorded_configuration(recording, options.baseline);
        } catch (const std::invalid_argument& e) {
            err << "optiml: error: --baseline: " << e.what() << "\n";
            return 1;
        }
        recording.baseline_source = search::BaselineSource::named;
    }
    out << "optiml: baseline " << search::format_config(recording.space.defaults) << ": "
        << recorded_outcome(recording, recording.space.defaults) << " ("
        << baseline_origin(recording.baseline_source) << ")\n";

    search::ReplayEvaluator evaluator(recording, options.in_flight);
    const search::Result result = search::run_search(
        recording.space, evaluator, {options.evaluations, 1e9, options.strategy}, {}, options.seed);
    out << "optiml: strategy " << result.strategy
        << (options.strategy == result.strategy ? "" : " (chosen by " + options.strategy + ")")
        << ", seed " << options.seed << ", " << result.trace.size() << " evaluations (budget "
        << options.evaluations << "), "
        << search::pipeline_text(options.in_flight, search::kDefaultBatchSize)
        << "; stopped: " << result.stop_reason << "\n";
    print_summary(result, *optimum, out);
    if (options.trace.empty()) return 0;
    try {
        const auto trace = search::replay_trace_json(
            recording, result,
            {options.strategy, options.seed, options.evaluations, options.in_flight});
        base::write_file_atomically(options.trace, search::replay_trace_text(trace));
    } catch (const std::runtime_error& e) {
        err << "optiml: error: --trace: " << e.what() << "\n";
        return 1;
    }
    out << "optiml: trace written to " << options.trace.string() << "\n";
    return 0;
}

}  // namespace optiml::cli
