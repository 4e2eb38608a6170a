// The JSON mapping of a transformation tree (tree_search.h), as the cache manifest stores it and
// `optiml explain` reads it: every node with its edge (kind, proposer, transformation, rationale,
// evidence, expected effects), its candidate (candidate_json.h), outcome, metrics, diagnosis,
// judge score, reward terms and consistency; then the best node and the winning path.
// docs/transformations.md lists the fields. The trace is not part of it (the manifest keeps its
// own).
#pragma once

#include <nlohmann/json.hpp>

#include "driver/search/tree_search.h"

namespace optiml::search {

nlohmann::json write_tree(const TreeResult& tree);
// Reads what write_tree wrote (the trace comes back empty); throws RecordingError
// ("tree: nodes[2].reward.total: missing; expected a number") on a malformed document.
TreeResult read_tree(const nlohmann::json& document);

// The cache entry's file holding the text of a source on the winning path: "source-original.cu"
// for the spec's own source (the empty id), "source-<first 16 hex digits of its id>.cu".
std::string path_source_file(const std::string& source_id);

}  // namespace optiml::search
