// How a search converged, from a manifest's trace: the best correct median so far against the
// number of evaluations and against wall time. One series per phase of the search: the parameter
// strategy that ran, then the transformation tree when it ran (its rows name a derived source or
// options). A portfolio's members take turns inside one phase; the trace does not say which
// member proposed a row, so the phase is one curve.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cache/entry_manifest.h"
#include "driver/report/detail/svg_chart.h"

namespace optiml::report {

// Two charts (ids "convergence-evaluations" and "convergence-time"); empty, with the reason in
// `why`, when the trace holds no correct result.
std::vector<Chart> convergence_charts(const cache::EntryManifest& manifest, std::string& why);

}  // namespace optiml::report
