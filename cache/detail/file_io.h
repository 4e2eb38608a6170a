// Internal to cache/: whole-file reads and durable writes with POSIX error reporting.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace optiml::cache::detail {

// The file's bytes; nullopt when it does not exist. Other failures throw CacheError.
std::optional<std::string> read_file(const std::filesystem::path& file);

// Creates `file` (which must not exist) with `mode` less the umask (0666 lets the umask decide,
// so a cache shared by a team through group permissions works), writes `bytes` and fsyncs it.
void write_file_synced(const std::filesystem::path& file, std::string_view bytes,
                       unsigned mode = 0666);

// Makes the directory's entries (creations, renames) durable.
void fsync_directory(const std::filesystem::path& directory);

// Sets the file's modification time to now, creating it if needed. Best effort: a failure
// (read-only file system, permissions) is ignored, since it only affects gc's LRU order.
void touch(const std::filesystem::path& file) noexcept;

}  // namespace optiml::cache::detail
