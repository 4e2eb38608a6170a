// The roofline of a tuned entry's evidence.json (docs/evidence.md): the measured bandwidth and
// compute ceilings of the dominant precision, and the original, the winner and every profiled
// variant placed by arithmetic intensity (FLOP per DRAM byte) and achieved FLOP/s.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/analysis/roofline.h"
#include "driver/report/detail/svg_chart.h"

namespace optiml::report {

struct Ceilings {
    std::string precision;  // "fp32", ...
    double flops_per_s = 0.0;
    double dram_bytes_per_s = 0.0;
};

// The ceilings a roofline verdict was judged against (its ridge point and the attainable FLOP/s
// at its intensity give both roofs); nullopt without FLOPs or bytes.
std::optional<Ceilings> ceilings_of(const analysis::RooflineVerdict& roofline);

// Series "ceiling", "original", "winner", "variants" (selection_table rows with FLOPs and bytes).
// nullopt, with the reason in `why`, when the evidence has no roofline to draw. Throws
// analysis::AnalysisError naming the field when `before` or `after` is malformed.
std::optional<Chart> roofline_chart(const nlohmann::json& evidence, std::string& why);

}  // namespace optiml::report
