// Turns what the worker collected into the evidence report (driver/analysis/evidence.h): the
// counters, the roofline verdict against the calibrated ceilings, the dominant stalls by line,
// and the counters that explain run time across the profiled variants.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "driver/analysis/evidence.h"
#include "driver/profile/profile_protocol.h"

namespace optiml::profile {

struct VariantProfile {
    std::string label;  // "original", "tuned", or the parameter list
    ProfileResult result;
    double measured_ms = 0.0;  // the evaluator's median (0: use the profiled run's duration)
};

// Notes say once why a section is missing (no profiling rights, counters this GPU lacks, ...).
analysis::EvidenceReport evidence_report(const std::string& kernel, const std::string& device,
                                         const VariantProfile& variant,
                                         const std::optional<analysis::DeviceCeilings>& ceilings,
                                         const std::optional<analysis::CounterSelection>& counters,
                                         double stall_threshold = analysis::kDefaultStallShare);

// The counter table of the variants that have counters, runtime = measured_ms, and the
// selection over it. nullopt with fewer than 3 such variants.
std::optional<analysis::CounterSelection> select_over(const std::vector<VariantProfile>& variants,
                                                      analysis::CounterTable* table = nullptr);

}  // namespace optiml::profile
