// Store::gc: damaged entries, stale staging folders, then least recently used entries.
#include <algorithm>
#include <chrono>
#include <tuple>

#include "cache/detail/atomic_write.h"
#include "cache/detail/layout.h"
#include "cache/store.h"

namespace optiml::cache {

namespace {

// Older than any plausible put(): such a folder was left by a writer that crashed.
constexpr auto kStaleStagingAge = std::chrono::hours(1);

void remove_stale_staging(const std::filesystem::path& staging_root) {
    const auto now = std::filesystem::file_time_type::clock::now();
    std::error_code error;
    for (const auto& item : std::filesystem::directory_iterator(staging_root, error)) {
        std::error_code item_error;
        const auto modified = item.last_write_time(item_error);
        if (!item_error && now - modified > kStaleStagingAge) {
            std::filesystem::remove_all(item.path(), item_error);
        }
    }
}

std::uint64_t folder_size(const std::filesystem::path& directory) {
    std::uint64_t total = 0;
    std::error_code error;
    for (const auto& item : std::filesystem::directory_iterator(directory, error)) {
        std::error_code item_error;
        if (item.is_regular_file(item_error)) {
            const std::uintmax_t size = item.file_size(item_error);
            if (!item_error) total += size;
        }
    }
    return total;
}

// When the entry was last read: its <key>.used marker, else when it was written.
std::filesystem::file_time_type last_use(const std::filesystem::path& root,
                                         const std::string& key) {
    std::error_code error;
    auto used = std::filesystem::last_write_time(detail::used_marker(root, key), error);
    if (!error) return used;
    auto written = std::filesystem::last_write_time(
        detail::entry_dir(root, key) / detail::kManifestName, error);
    return error ? std::filesystem::file_time_type::min() : written;
}

// <key>.used markers outlive their entry when a read races a removal.
void remove_orphan_markers(const std::filesystem::path& root) {
    std::error_code error;
    for (const auto& shard :
         std::filesystem::directory_iterator(detail::entries_dir(root), error)) {
        std::error_code shard_error;
        for (const auto& item : std::filesystem::directory_iterator(shard.path(), shard_error)) {
            const std::string name = item.path().filename().string();
            if (!name.ends_with(detail::kUsedSuffix)) continue;
            const std::string key = name.substr(0, name.size() - detail::kUsedSuffix.size());
            std::error_code item_error;
            if (!std::filesystem::exists(shard.path() / key, item_error) && !item_error) {
                std::filesystem::remove(item.path(), item_error);
            }
        }
    }
}

struct LiveEntry {
    std::string key;
    std::uint64_t bytes;
    std::filesystem::file_time_type last_used;
};

}  // namespace

std::vector<std::string> Store::gc(std::optional<std::uint64_t> max_bytes,
                                   std::vector<std::string>* in_use) const {
    require_writable("collect garbage");
    const std::filesystem::path staging = detail::staging_root(root_);
    // Never an entry a build is reading (it holds the entry's lock): that one stays, for the
    // next gc.
    auto remove_entry = [&](const std::string& key) {
        const detail::Removal removal = detail::remove_directory_atomically(
            entry_dir(key), staging, key + ".gc", /*if_unused=*/true);
        if (removal == detail::Removal::kInUse) {
            if (in_use != nullptr) in_use->push_back(key);
        } else {
            std::error_code ignored;
            std::filesystem::remove(detail::used_marker(root_, key), ignored);
        }
        return removal;
    };

    std::vector<std::string> removed;
    remove_stale_staging(staging);

    std::vector<LiveEntry> live;
    std::uint64_t total = 0;
    for (const std::string& key : keys()) {
        try {
            if (!inspect(key)) continue;  // removed by someone else
        } catch (const DamagedEntryError&) {
            if (remove_entry(key) == detail::Removal::kRemoved) removed.push_back(key);
            continue;
        }
        LiveEntry entry{key, folder_size(entry_dir(key)), last_use(root_, key)};
        total += entry.bytes;
        live.push_back(std::move(entry));
    }
    remove_orphan_markers(root_);

    if (max_bytes && total > *max_bytes) {
        std::sort(live.begin(), live.end(), [](const LiveEntry& a, const LiveEntry& b) {
            return std::tie(a.last_used, a.key) < std::tie(b.last_used, b.key);
        });
        for (const LiveEntry& entry : live) {
            if (total <= *max_bytes) break;
            // Read since the scan: no longer among the least recently used.
            if (last_use(root_, entry.key) != entry.last_used) continue;
            const detail::Removal removal = remove_entry(entry.key);
            if (removal == detail::Removal::kRemoved) removed.push_back(entry.key);
            if (removal != detail::Removal::kInUse) total -= entry.bytes;
        }
    }
    return removed;
}

}  // namespace optiml::cache
