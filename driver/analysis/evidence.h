// The evidence report: why one variant of a kernel is as fast as it is, in a short form the
// search, the judge and LLM prompts consume (JSON) and people read (Markdown).
// docs/evidence.md documents the JSON schema field by field.
//
// Every item carries a stable id that proposals and prompts cite:
//   "metrics"                 the raw counters of the run
//   "roofline"                the roofline verdict
//   "stall-1", "stall-2", ... dominant stalls, largest share first
//   "counter-1", ...          counters selected as explaining runtime across variants
// A section that was not collected is null in the JSON; whoever builds the report adds a line to
// `notes` saying why (e.g. no profiling rights).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/analysis/counter_selection.h"
#include "driver/analysis/roofline.h"
#include "driver/analysis/stalls.h"

namespace optiml::analysis {

// Bumped whenever a field changes meaning or disappears; adding a field does not bump it.
inline constexpr int kEvidenceSchema = 1;

struct EvidenceReport {
    std::string kernel;   // the spec's kernel name
    std::string variant;  // which variant was profiled: "original", "tuned", or a parameter list
    std::string device;   // e.g. "NVIDIA H200"
    std::optional<KernelCounters> metrics;
    std::optional<RooflineVerdict> roofline;
    std::optional<StallSummary> stalls;
    std::optional<CounterSelection> counters;
    std::vector<std::string> notes;  // e.g. "no profiling rights: timing only"
};

nlohmann::json to_json(const EvidenceReport& report);

// Reads what to_json wrote. Throws AnalysisError naming `source` (a file name, or "evidence")
// and the field for anything missing, mistyped or from a newer schema.
EvidenceReport evidence_from_json(const nlohmann::json& json, std::string_view source = "evidence");

// For people: a heading, the roofline verdict with its numbers, the dominant stalls, the selected
// counters and the notes; every item shows its id.
std::string to_markdown(const EvidenceReport& report);

// Every id the report holds, in report order: what a proposal may cite.
std::vector<std::string> evidence_ids(const EvidenceReport& report);

}  // namespace optiml::analysis
