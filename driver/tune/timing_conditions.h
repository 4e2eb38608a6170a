// The two timing conditions every candidate is timed under (docs/spec.md, Timing): cold (the L2
// emptied before each run) and warm (back-to-back launches, as a loop in a program). The spec's
// timing.decide_by picks the one the search decides with; these carry both into the trace, the
// manifest and the build line, which say which one the speedup is.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "cache/entry_manifest.h"
#include "driver/measure/protocol.h"
#include "driver/search/search.h"
#include "driver/spec/spec.h"

namespace optiml::tune {

// Into a trace row's details: cold_median_ms, warm_median_ms (per launch), warm_burst,
// warm_runs, the incumbent's cold and warm medians when it was timed beside, and decided_warm
// (1: warm decided). Nothing from a worker that did not say (an older one).
void add_conditions(const measure::Measurement& m, search::OutcomeDetails& details);

// The manifest's "timing": cold_cache, decided_by, and per condition the winner's and the
// original's medians and their ratio: {"cold": {"time_ms", "original_time_ms", "speedup"},
// "warm": {..., "burst"}}. A condition either outcome lacks is left out.
nlohmann::json timing_manifest(const spec::Spec& spec, const search::Outcome& original,
                               const search::Outcome& winner);

// What the manifest's "speedup" is: "cold L2" or "warm L2". An entry from before both were
// timed says nothing; it was timed cold.
std::string speedup_condition(const cache::EntryManifest& manifest);

// The build line's speedup: "1.09x, cold L2", with the other condition's after it when the
// manifest has it: "1.09x, cold L2; warm L2 1.03x".
std::string speedup_text(const cache::EntryManifest& manifest);

}  // namespace optiml::tune
