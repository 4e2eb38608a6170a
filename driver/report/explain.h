// `optiml explain`: a tuning result's winning path, step by step: what each transformation
// changed (a diff of the kernel), why (its rationale and the evidence ids it cites), what moved
// (the metrics it expected to move, before and after, and whether they moved as predicted), and
// what it gained (time and the reward's terms).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "cache/entry_manifest.h"

namespace optiml::report {

// The kernel text a source id names ("" is the original), or nullopt when the entry lacks it.
using SourceLookup = std::function<std::optional<std::string>(const std::string& source_id)>;

// The whole explanation of a cache entry's manifest. An entry tuned without the tree (an explicit
// strategy, or from before the tree existed) gets its parameter result and a line saying so.
// Throws std::runtime_error naming the field when the manifest's tree is malformed.
std::string explain(const cache::EntryManifest& manifest, const SourceLookup& sources);

}  // namespace optiml::report
