// `optiml report`: one self-contained HTML page per cache entry (inline CSS and SVG, no script,
// nothing fetched when it is viewed): the roofline with the original, the winner and the profiled
// variants against the measured ceilings; the search's convergence; the winning path with its
// evidence and the kernel's diff (explain.h's account); the dominant stalls by source line; and
// what the entry does not record.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cache/entry_manifest.h"
#include "driver/report/explain.h"

namespace optiml::report {

struct ReportInput {
    std::string key;
    cache::EntryManifest manifest;
    std::optional<nlohmann::json> evidence;  // the entry's evidence.json, when it has one
    SourceLookup sources;                    // the texts on the winning path, as for explain()
};

// Throws std::runtime_error (analysis::AnalysisError included) naming the field of a malformed
// manifest or evidence.
std::string render_html_report(const ReportInput& input);

// "<name>-<arch>-<first 12 digits of the key>.html"
std::string report_file_name(const cache::EntryManifest& manifest, const std::string& key);

}  // namespace optiml::report
