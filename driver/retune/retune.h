// `optiml retune --build-dir <dir>`: the nightly job. For every kernel the build declared
// (build_manifest.h) and every architecture it declared with a GPU here: tune again, time the new
// winner beside the cached one in one worker (side_by_side.h), store the new winner when it is
// faster (or when the key changed: the old entry no longer serves this toolchain), and write the
// regression report (retune_report.h) as <report dir>/retune-report.{json,md}.
// A recording (docs/replay.md) may stand in for the GPU of a kernel it names: its recorded
// outcomes answer both the search and the side-by-side timing; nothing is stored then, since no
// binary was timed.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <vector>

#include "cache/store.h"
#include "driver/llm/llm_config.h"
#include "driver/retune/retune_report.h"

namespace optiml::retune {

struct RetuneOptions {
    std::filesystem::path build_dir;
    std::filesystem::path report_dir;  // empty: <build dir>/optiml-retune
    // A real regression beyond this many percent makes run_retune return kRegressionStatus.
    std::optional<double> fail_on_regression;
    std::vector<std::filesystem::path> replays;  // recordings, each for the kernel it names
    std::optional<int> budget_evaluations;       // over the build's and the spec's budgets
    std::optional<double> budget_seconds;
    // Called with each new winner stored in the local cache, to publish it (the remote cache);
    // null: nothing is published. Throws std::runtime_error to report a failed publication.
    std::function<void(const cache::Entry&)> publish;
    // This machine's LLM settings (llm::llm_config_from_environment(), the API key among them),
    // where `optiml build` starts too: each kernel's build flags (DeclaredKernel::llm_flags)
    // override them as they did the build's, so that the retune's key is the build's and the
    // LLM proposes and judges as it did there.
    llm::LlmConfig llm;
};

inline constexpr int kRegressionStatus = 2;

// 0; 1 after an error (written to `log`: unreadable build manifest or recording, or nothing
// retuned because no declared architecture has a GPU here); or kRegressionStatus. `report`, when
// given, receives what was written.
int run_retune(const RetuneOptions& options, std::ostream& log, RetuneReport* report = nullptr);

}  // namespace optiml::retune
