// The one JSON mapping of a candidate, as trace rows and manifests hold it: "parameters" always;
// "source_id", "transformations", "options" and "grid" only where set, so that a candidate of the
// original source reads and writes exactly as a configuration did before candidates existed.
#pragma once

#include <nlohmann/json.hpp>

#include "driver/search/search.h"

namespace optiml::search {

// Adds the candidate's fields to `object` (a trace row or a manifest).
void write_candidate(const Candidate& candidate, nlohmann::json& object);
// The candidate fields of `object`; absent ones are the original's. Throws nlohmann's errors on
// fields of the wrong type.
Candidate read_candidate(const nlohmann::json& object);

// A trace row's "details": each figure present, under its field's name; a flag as 1 when set
// (decided_warm as 0 or 1).
nlohmann::json details_json(const OutcomeDetails& details);

}  // namespace optiml::search
