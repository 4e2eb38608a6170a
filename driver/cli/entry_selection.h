// Which cache entries a command's <key | spec> argument names: a key or a unique prefix of one,
// or a spec file, whose current sources key to one entry per architecture tuned.
#pragma once

#include <string>
#include <vector>

#include "cache/store.h"
#include "driver/report/explain.h"

namespace optiml::cli {

// Throws cache::CacheError saying what matched and how to narrow it; a bad spec throws its
// SpecError.
std::vector<std::string> select_entries(const cache::Store& store, const std::string& target);

// The texts of the winning path's sources the entry holds (search/tree_json.h names the files).
// The entry must outlive the lookup.
report::SourceLookup path_sources(const cache::Entry& entry);

}  // namespace optiml::cli
