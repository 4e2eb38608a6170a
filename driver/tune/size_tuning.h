// Tuning across the spec's problems (issue 29): after the tuning at the arguments' own values,
// each problem of the spec is tuned in ascending order of size, its parameter search starting
// from the winners found so far (Budget::priors) on half the budget, converging early; then every
// winner is timed at every problem, side by side in one session per problem (where it fits, the
// session of that problem's search, whose measurements stand): the generalisation matrix. From it
// search::choose_dispatch() picks the fewest variants that keep each problem within 3% of its own
// best, and the sizes where each takes over. The result goes to the entry's manifest ("sizes",
// docs/spec.md#problems) with the chosen variants' images, from which the generated launcher
// dispatches by size; the log says what one variant at every size would lose.
#pragma once

#include <map>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "driver/search/candidate.h"
#include "driver/tune/source_variants.h"
#include "driver/tune/tuning.h"

namespace optiml::tune {

// What the tuning across problems adds to the entry: the manifest's "sizes" record, and the
// CUBIN and PTX of each variant the dispatch chose besides the shipped winner (its images, by
// file name, and the manifest's roles for them: "size_cubin_<v>", "size_ptx_<v>").
struct ProblemTuningResult {
    nlohmann::json record;                     // null: the spec lists no problems
    std::map<std::string, std::string> files;  // file name -> bytes
    std::map<std::string, std::string> roles;  // role -> file name
};

// `winner`: the tuning's winner at the arguments' own values (its text in `sources` when derived).
// Lines go to `log`, each starting with `prefix`. A problem whose session cannot start is left
// out and said so. Never throws for a measurement failure.
ProblemTuningResult tune_problems(const TuneRequest& request, const search::Candidate& winner,
                                  const SourceVariants& sources, std::ostream& log,
                                  const std::string& prefix);

}  // namespace optiml::tune
