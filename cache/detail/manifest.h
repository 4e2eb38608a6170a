// Internal to cache/: the parts of manifest.json the store knows about. Everything else in the
// manifest belongs to the tuner and is stored and returned unchanged.
//   "key":    written by the store: the entry's key (must match its folder name)
//   "sha256": written by the store: file name -> lowercase hex SHA-256 of its bytes; the files
//             it lists are the entry's files
//   "files":  the tuner's (optional): role -> file name, or a list of file names; every name
//             it mentions must be one of the entry's files
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cache/store.h"

namespace optiml::cache::detail {

// The file names the manifest's "files" field mentions: empty when the field is absent,
// nullopt when it is neither an object of strings nor an array of strings.
std::optional<std::vector<std::string>> referenced_file_names(const nlohmann::json& manifest);

// The manifest as written to disk: the caller's manifest plus "key" and "sha256". Throws
// CacheError when the manifest is not a JSON object, a file name is not a plain name, or
// "files" mentions a file the entry does not have.
nlohmann::json manifest_to_store(const Entry& entry);

// The manifest's bytes on disk: indented and with sorted keys, so a committed seed cache
// diffs well and exporting the same entry twice writes identical bytes.
std::string serialize_manifest(const nlohmann::json& manifest);

}  // namespace optiml::cache::detail
