// The local content-addressed store. Layout under a root directory:
//   <root>/entries/<key[0..2]>/<key>/manifest.json   (+ the files the manifest lists)
//   <root>/entries/<key[0..2]>/<key>.used            (touched on each read: gc's LRU order)
//   <root>/tmp/                                         (staging for atomic writes)
// A seed cache (committed by a project) has the same layout and is opened read-only.
// docs/caching.md describes the layout, atomicity and gc.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace optiml::cache {

class CacheError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// An entry that exists but is damaged: unparsable manifest, missing file, or a file whose
// SHA-256 differs from the manifest's. The message names the path, the problem and the fix.
class DamagedEntryError : public CacheError {
  public:
    using CacheError::CacheError;
};

struct Entry {
    std::string key;
    // See docs/caching.md for its fields. put() writes "key" and "sha256" (file -> hex); an
    // optional "files" (role -> file name, or a list of names) must name only files in `files`;
    // everything else is stored unchanged.
    nlohmann::json manifest;
    std::map<std::string, std::string> files;  // file name (no slashes) -> bytes
    std::filesystem::path directory;           // where it was read from (empty if new)
};

// $OPTIML_CACHE_DIR, else $XDG_CACHE_HOME/optiml, else $HOME/.cache/optiml. Empty variables
// count as unset. Throws CacheError when none is set or OPTIML_CACHE_DIR is relative.
std::filesystem::path default_cache_dir();

class Store {
  public:
    // A writable store creates its folders on the first put(). A read-only store (a seed
    // cache) must already exist and contain entries/; otherwise CacheError says so.
    explicit Store(std::filesystem::path root, bool read_only = false);

    const std::filesystem::path& root() const { return root_; }
    bool read_only() const { return read_only_; }

    // nullopt when absent. Throws CacheError when present but damaged (bad manifest, a file
    // whose SHA-256 differs from the manifest's "sha256" map): DamagedEntryError.
    // A writable store touches <key>.used so that gc evicts the least recently used first.
    // Throws CacheError when `key` is not 64 lowercase hex digits.
    std::optional<Entry> get(const std::string& key) const;
    // get() without counting as a use for gc (for `optiml cache ls`/`show`).
    std::optional<Entry> inspect(const std::string& key) const;
    // Why nothing can be written here now, in the system's words ("Read-only file system",
    // "No space left on device", "Permission denied"), or nullopt when writing may succeed.
    // Creates nothing: a folder that does not exist yet is judged by the nearest one above it.
    std::optional<std::string> write_problem() const;
    // Whether an entry folder exists for `key` (its contents are not verified).
    bool contains(const std::string& key) const;

    // Atomic: files are written to <root>/tmp/<unique>/, fsync'd, then the directory is
    // renamed into place. If another writer put the same key first, theirs is kept
    // (same key = same inputs). Adds "sha256" (file -> hex) to the stored manifest.
    // Throws CacheError on a read-only store.
    void put(const Entry& entry);
    // put(), reporting whether this call stored the entry (false: one was already there).
    bool insert(const Entry& entry);

    std::vector<std::string> keys() const;  // sorted

    struct VerifyResult {
        std::string key;
        bool ok;
        std::string problem;  // empty when ok
    };
    std::vector<VerifyResult> verify() const;

    // Removes damaged entries and stale staging directories; with max_bytes, also the
    // least recently used entries until the store fits. Returns the keys removed.
    // An entry that a reader (a build) is reading at that moment is never removed: it is kept,
    // and listed in `in_use` when given; the next gc may take it.
    // Throws CacheError on a read-only store.
    std::vector<std::string> gc(std::optional<std::uint64_t> max_bytes,
                                std::vector<std::string>* in_use = nullptr) const;

    // Copies entries (all when `keys` is empty) to/from another store directory.
    // Returns the keys copied.
    // Every entry is read and verified before anything is written, so a damaged or missing
    // entry (CacheError) leaves the destination unchanged. Entries already at the destination
    // are kept as they are and not listed among the keys copied.
    std::vector<std::string> export_to(const std::filesystem::path& dest,
                                       const std::vector<std::string>& keys) const;
    std::vector<std::string> import_from(const std::filesystem::path& source);

    // Removes the entry atomically, after any reader of it has finished; false when it was
    // absent. CacheError on a read-only store.
    bool remove(const std::string& key);

  private:
    std::filesystem::path entry_dir(const std::string& key) const;
    void require_writable(const std::string& action) const;
    std::filesystem::path root_;
    bool read_only_;
};

}  // namespace optiml::cache
