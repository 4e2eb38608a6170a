// Internal to cache/: where things live under a store's root, and which names are allowed.
//   <root>/entries/<key[0..2]>/<key>/manifest.json   an entry (plus the files it lists)
//   <root>/entries/<key[0..2]>/<key>.used            touched on every read, for gc's LRU order
//   <root>/tmp/                                      staging for atomic writes and removals
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace optiml::cache::detail {

inline constexpr std::string_view kManifestName = "manifest.json";
inline constexpr std::string_view kUsedSuffix = ".used";

std::filesystem::path entries_dir(const std::filesystem::path& root);
std::filesystem::path staging_root(const std::filesystem::path& root);
std::filesystem::path shard_dir(const std::filesystem::path& root, const std::string& key);
std::filesystem::path entry_dir(const std::filesystem::path& root, const std::string& key);
std::filesystem::path used_marker(const std::filesystem::path& root, const std::string& key);

// A key is 64 lowercase hex digits (a SHA-256), which also keeps it a safe path component.
bool is_valid_key(std::string_view key);
// Throws CacheError naming the bad key and what a key looks like.
void require_valid_key(std::string_view key);

// A file of an entry: a plain name (no '/', not "." or "..", not the manifest's own name).
bool is_valid_file_name(std::string_view name);

}  // namespace optiml::cache::detail
