// Internal to cache/: the fields of manifest.json that the store owns. Everything else in the
// manifest belongs to the tuner and is stored and returned unchanged.
//   "key":    the entry's key (must match its folder name)
//   "files":  the names of the entry's files, sorted
//   "sha256": file name -> lowercase hex SHA-256 of its bytes
#pragma once

#include <nlohmann/json.hpp>

#include "cache/store.h"

namespace optiml::cache::detail {

// The manifest as written to disk: the caller's manifest plus the store's fields. Throws
// CacheError when the manifest is not a JSON object or a file name is not a plain name.
nlohmann::json manifest_to_store(const Entry& entry);

// The manifest's bytes on disk: indented and with sorted keys, so a committed seed cache
// diffs well and exporting the same entry twice writes identical bytes.
std::string serialize_manifest(const nlohmann::json& manifest);

}  // namespace optiml::cache::detail
