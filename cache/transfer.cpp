// Store::export_to and Store::import_from: whole entries between two stores, through put().
#include <vector>

#include "cache/detail/layout.h"
#include "cache/store.h"

namespace optiml::cache {

namespace {

// Reads everything before writing anything, so a damaged source changes nothing.
std::vector<Entry> read_all(const Store& source, const std::vector<std::string>& keys) {
    std::vector<Entry> entries;
    for (const std::string& key : keys) {
        std::optional<Entry> entry = source.inspect(key);  // copying is not a use
        if (!entry) {
            throw CacheError(source.root().string() + ": no entry " + key +
                             "; `optiml cache ls` lists the keys present");
        }
        entries.push_back(std::move(*entry));
    }
    return entries;
}

std::vector<std::string> put_all(Store& destination, const std::vector<Entry>& entries) {
    std::vector<std::string> copied;
    for (const Entry& entry : entries) {
        if (destination.insert(entry)) copied.push_back(entry.key);
    }
    return copied;
}

}  // namespace

std::vector<std::string> Store::export_to(const std::filesystem::path& dest,
                                          const std::vector<std::string>& keys) const {
    const std::vector<Entry> entries = read_all(*this, keys.empty() ? this->keys() : keys);
    Store destination(dest);
    // entries/ marks the folder as a cache even when nothing was exported.
    std::error_code error;
    std::filesystem::create_directories(detail::entries_dir(destination.root()), error);
    if (error) {
        throw CacheError(detail::entries_dir(destination.root()).string() +
                         ": cannot create directory: " + error.message());
    }
    std::vector<std::string> copied = put_all(destination, entries);
    // A seed cache gets committed: leave no empty staging folder in it (fails harmlessly
    // when another writer is using it).
    std::filesystem::remove(detail::staging_root(destination.root()), error);
    return copied;
}

std::vector<std::string> Store::import_from(const std::filesystem::path& source) {
    require_writable("import entries");
    const Store origin(source, /*read_only=*/true);
    return put_all(*this, read_all(origin, origin.keys()));
}

}  // namespace optiml::cache
