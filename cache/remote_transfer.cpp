#include "cache/remote_transfer.h"

#include "cache/build_cache.h"
#include "cache/detail/layout.h"
#include "cache/detail/remote_http.h"

namespace optiml::cache {

namespace {

std::vector<Entry> read_entries(const Store& store, const std::vector<std::string>& wanted) {
    std::vector<Entry> entries;
    for (const std::string& key : wanted.empty() ? store.keys() : wanted) {
        std::optional<Entry> entry = store.inspect(key);
        if (!entry) {
            throw CacheError(store.root().string() + ": no entry " + key +
                             "; `optiml cache ls` lists the keys present");
        }
        entries.push_back(std::move(*entry));
    }
    return entries;
}

}  // namespace

std::vector<Pushed> push_entries(const Store& store, const std::vector<std::string>& keys,
                                 RemoteConfig config, const std::optional<SigningKey>& key) {
    std::vector<Entry> entries = read_entries(store, keys);
    for (Entry& entry : entries) entry = entry_to_publish(entry, key);
    config.mode = RemoteMode::kReadWrite;  // pushing by hand is an explicit write
    RemoteHttpBackend remote(std::move(config), {});
    std::vector<Pushed> pushed;
    for (const Entry& entry : entries) pushed.push_back({entry.key, remote.publish(entry)});
    return pushed;
}

std::vector<std::string> pull_entries(Store& store, const std::vector<std::string>& keys,
                                      const RemoteConfig& config, const TrustedKeys& trusted) {
    RemoteHttpBackend remote(config, {});
    std::vector<std::string> pulled;
    for (const std::string& key : keys) {
        std::optional<Entry> entry = remote.fetch(key);
        if (!entry) {
            throw CacheError("remote cache " + config.url + " has no entry " + key + " (GET /ac/" +
                             key + " answered 404)");
        }
        trusted.require_signed(*entry, "remote " + config.url);
        if (store.insert(*entry)) pulled.push_back(key);
    }
    return pulled;
}

std::vector<std::string> sign_entries(const std::filesystem::path& root,
                                      const std::vector<std::string>& keys, const SigningKey& key) {
    Store store(root);
    const std::vector<Entry> entries = read_entries(store, keys);
    std::vector<std::string> changed;
    for (const Entry& entry : entries) {
        const Entry signed_copy = signed_entry(entry, key);
        // Ed25519 is deterministic: an entry this key signed already comes out the same.
        if (signed_copy.manifest == entry.manifest) continue;
        store.remove(entry.key);
        store.put(signed_copy);
        changed.push_back(entry.key);
    }
    std::error_code ignored;
    std::filesystem::remove(detail::staging_root(store.root()), ignored);  // only when empty
    return changed;
}

}  // namespace optiml::cache
