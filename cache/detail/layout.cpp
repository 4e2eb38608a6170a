#include "cache/detail/layout.h"

#include <algorithm>

#include "cache/store.h"

namespace optiml::cache::detail {

std::filesystem::path entries_dir(const std::filesystem::path& root) {
    return root / "entries";
}

std::filesystem::path staging_root(const std::filesystem::path& root) {
    return root / "tmp";
}

std::filesystem::path shard_dir(const std::filesystem::path& root, const std::string& key) {
    // 256 shards keep directories small even with many thousands of entries.
    return entries_dir(root) / key.substr(0, 2);
}

std::filesystem::path entry_dir(const std::filesystem::path& root, const std::string& key) {
    return shard_dir(root, key) / key;
}

std::filesystem::path used_marker(const std::filesystem::path& root, const std::string& key) {
    return shard_dir(root, key) / (key + std::string(kUsedSuffix));
}

bool is_valid_key(std::string_view key) {
    return key.size() == 64 && std::all_of(key.begin(), key.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

void require_valid_key(std::string_view key) {
    if (!is_valid_key(key)) {
        throw CacheError("'" + std::string(key) +
                         "' is not a cache key: expected 64 lowercase hex digits (a SHA-256), as "
                         "`optiml cache ls` prints them");
    }
}

bool is_valid_file_name(std::string_view name) {
    return !name.empty() && name != "." && name != ".." && name != kManifestName &&
           name.find('/') == std::string_view::npos && name.find('\0') == std::string_view::npos;
}

}  // namespace optiml::cache::detail
