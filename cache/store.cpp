#include "cache/store.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <sys/statvfs.h>
#include <unistd.h>

#include "cache/detail/atomic_write.h"
#include "cache/detail/entry_reader.h"
#include "cache/detail/file_io.h"
#include "cache/detail/layout.h"
#include "cache/detail/manifest.h"

namespace optiml::cache {

Store::Store(std::filesystem::path root, bool read_only)
    : root_(std::filesystem::absolute(root).lexically_normal()), read_only_(read_only) {
    std::error_code error;
    const bool exists = std::filesystem::exists(root_, error);
    if (exists && !std::filesystem::is_directory(root_, error)) {
        throw CacheError(root_.string() + ": not a directory; a cache is a folder");
    }
    if (read_only_ && !std::filesystem::is_directory(detail::entries_dir(root_), error)) {
        throw CacheError(
            root_.string() +
            (exists ? ": not an OptiML cache (it has no entries/ folder)" : ": no such directory") +
            "; a seed cache is written with `optiml cache export --to <dir>`");
    }
}

std::filesystem::path Store::entry_dir(const std::string& key) const {
    return detail::entry_dir(root_, key);
}

void Store::require_writable(const std::string& action) const {
    if (read_only_) {
        throw CacheError(root_.string() + ": cannot " + action +
                         ": this cache is read-only (a seed cache); use a writable cache such as "
                         "the default one (see `optiml cache --help`)");
    }
}

std::optional<Entry> Store::inspect(const std::string& key) const {
    return detail::load_entry(root_, key, detail::damage_fix(root_, read_only_));
}

std::optional<Entry> Store::get(const std::string& key) const {
    std::optional<Entry> entry = inspect(key);
    // Entries are immutable, so recency lives in a sibling file that gc reads.
    if (entry && !read_only_) detail::touch(detail::used_marker(root_, key));
    return entry;
}

std::optional<std::string> Store::write_problem() const {
    if (read_only_) return "it is a read-only (seed) cache";
    // The folder itself, or the nearest one above it that exists, where put() creates it.
    std::filesystem::path folder = root_;
    std::error_code error;
    while (!std::filesystem::exists(folder, error) && folder.has_relative_path())
        folder = folder.parent_path();
    if (::access(folder.c_str(), W_OK) != 0) return std::strerror(errno);
    struct statvfs space {};
    if (::statvfs(folder.c_str(), &space) == 0) {
        // Root may write into the blocks a file system reserves for it.
        const bool root_user = ::geteuid() == 0;
        const auto blocks = root_user ? space.f_bfree : space.f_bavail;
        const auto files = root_user ? space.f_ffree : space.f_favail;
        if (blocks == 0 || (space.f_files != 0 && files == 0)) return std::strerror(ENOSPC);
    }
    return std::nullopt;
}

bool Store::contains(const std::string& key) const {
    detail::require_valid_key(key);
    std::error_code error;
    return std::filesystem::is_directory(entry_dir(key), error);
}

void Store::put(const Entry& entry) {
    insert(entry);
}

bool Store::insert(const Entry& entry) {
    require_writable("store entry " + entry.key);
    detail::require_valid_key(entry.key);
    const nlohmann::json manifest = detail::manifest_to_store(entry);

    const std::filesystem::path staging =
        detail::make_staging_dir(detail::staging_root(root_), entry.key);
    try {
        for (const auto& [name, bytes] : entry.files) {
            detail::write_file_synced(staging / name, bytes);
        }
        detail::write_file_synced(staging / detail::kManifestName,
                                  detail::serialize_manifest(manifest));
        detail::fsync_directory(staging);

        const std::filesystem::path shard = detail::shard_dir(root_, entry.key);
        std::error_code error;
        std::filesystem::create_directories(shard, error);  // safe when others race us
        if (error) {
            throw CacheError(shard.string() + ": cannot create directory: " + error.message());
        }
        if (detail::rename_into_place(staging, entry_dir(entry.key)) ==
            detail::Placement::kAlreadyPresent) {
            return false;
        }
        detail::fsync_directory(shard);  // make the rename itself durable
        return true;
    } catch (...) {
        std::error_code ignored;
        std::filesystem::remove_all(staging, ignored);
        throw;
    }
}

std::vector<std::string> Store::keys() const {
    std::vector<std::string> keys;
    std::error_code error;
    for (const auto& shard :
         std::filesystem::directory_iterator(detail::entries_dir(root_), error)) {
        if (!shard.is_directory(error)) continue;
        const std::string shard_name = shard.path().filename().string();
        for (const auto& item : std::filesystem::directory_iterator(shard.path(), error)) {
            std::string name = item.path().filename().string();
            // Skips <key>.used markers and anything a person left there.
            if (detail::is_valid_key(name) && name.starts_with(shard_name) &&
                item.is_directory(error)) {
                keys.push_back(std::move(name));
            }
        }
    }
    std::sort(keys.begin(), keys.end());
    return keys;
}

std::vector<Store::VerifyResult> Store::verify() const {
    std::vector<VerifyResult> results;
    for (const std::string& key : keys()) {
        try {
            // Verifying is not a use: it must not change gc's LRU order.
            if (inspect(key)) results.push_back({key, true, {}});
        } catch (const CacheError& error) {
            results.push_back({key, false, error.what()});
        }
    }
    return results;
}

bool Store::remove(const std::string& key) {
    require_writable("remove entry " + key);
    detail::require_valid_key(key);
    const bool removed =
        detail::remove_directory_atomically(entry_dir(key), detail::staging_root(root_),
                                            key + ".removed") == detail::Removal::kRemoved;
    std::error_code ignored;
    std::filesystem::remove(detail::used_marker(root_, key), ignored);
    return removed;
}

}  // namespace optiml::cache
