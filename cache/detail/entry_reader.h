// Internal to cache/: reading an entry back and checking it against its manifest.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "cache/store.h"

namespace optiml::cache::detail {

// What a user should do about a damaged entry in the store at `root`.
std::string damage_fix(const std::filesystem::path& root, bool read_only);

// A manifest's text (read from `where`, a file or a URL) as a JSON object. Throws
// DamagedEntryError naming `where`, the problem (where the text stops being JSON: line and
// column) and `fix`.
nlohmann::json parse_manifest_text(const std::string& text, const std::filesystem::path& where,
                                   const std::string& fix);

// The store's own fields of a manifest read from `where` (a file or a URL), checked for shape:
// file name -> recorded SHA-256. Throws DamagedEntryError naming `where`, the problem and `fix`.
std::map<std::string, std::string> recorded_hashes(const nlohmann::json& manifest,
                                                   const std::filesystem::path& where,
                                                   const std::string& key, const std::string& fix);

// Reads and verifies the entry of `key` under `root`; nullopt when absent (including when a
// concurrent remove or gc took it away mid-read). Throws DamagedEntryError naming the path, the
// problem and `fix` (what the user should do about it).
std::optional<Entry> load_entry(const std::filesystem::path& root, const std::string& key,
                                const std::string& fix);

}  // namespace optiml::cache::detail
