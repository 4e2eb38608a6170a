// Internal to cache/: reading an entry back and checking it against its manifest.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "cache/store.h"

namespace optiml::cache::detail {

// What a user should do about a damaged entry in the store at `root`.
std::string damage_fix(const std::filesystem::path& root, bool read_only);

// Reads and verifies the entry of `key` under `root`; nullopt when absent (including when a
// concurrent remove or gc took it away mid-read). Throws DamagedEntryError naming the path, the
// problem and `fix` (what the user should do about it).
std::optional<Entry> load_entry(const std::filesystem::path& root, const std::string& key,
                                const std::string& fix);

}  // namespace optiml::cache::detail
