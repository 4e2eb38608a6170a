// The caches one `optiml build` uses: the lookup chain (the local cache, then each seed, then
// the remote; seed and remote entries only when a trusted key signed them) and where a tuning's
// result goes (the local cache, and a read-write remote, signed).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cache/lookup_chain.h"
#include "cache/remote_config.h"
#include "cache/signature.h"
#include "cache/trust.h"

namespace optiml::cache {

class RemoteHttpBackend;

using Warn = std::function<void(const std::string&)>;

struct BuildCacheConfig {
    std::filesystem::path local_dir;  // empty: default_cache_dir()
    std::vector<std::filesystem::path> seeds;
    std::optional<RemoteConfig> remote;
    // Trusted-keys files besides each seed's <seed>/trusted-keys.txt and $OPTIML_TRUSTED_KEYS.
    std::vector<std::filesystem::path> trusted_key_files;
};

// The trusted keys of a build: each seed's trusted-keys.txt (when present), every file of
// `extra_files` and $OPTIML_TRUSTED_KEYS (each must exist). Throws CacheError naming a missing
// or malformed file.
std::shared_ptr<const TrustedKeys> load_trusted_keys(
    const std::vector<std::filesystem::path>& seeds,
    const std::vector<std::filesystem::path>& extra_files);

class BuildCache {
  public:
    // Throws CacheError for a bad trusted-keys file or an unusable local cache folder. A local
    // folder that cannot be written (read-only, full) is one warning, and the build goes on.
    BuildCache(const BuildCacheConfig& config, Warn warn);
    ~BuildCache();

    const Store& local() const { return local_; }
    // The first usable entry; every entry passed over is reported through `warn`, one line.
    std::optional<Found> fetch(const std::string& key) const;
    // A tuning's result: replaces the local entry, then, with a read-write remote, publishes it
    // signed by $OPTIML_SIGNING_KEY. Failures are warnings: the build has its result. Returns
    // whether the remote received it.
    bool store(const Entry& entry);

  private:
    Store local_;
    Warn warn_;
    bool local_writable_ = true;  // else remote hits are not copied in, nor results stored
    std::optional<RemoteConfig> remote_config_;
    RemoteHttpBackend* remote_ = nullptr;  // owned by chain_ (behind its trust check)
    LookupChain chain_;
};

// The key publishing signs with, $OPTIML_SIGNING_KEY: what a publisher checks before it spends
// GPU time on results it could not publish. Throws CacheError when unset (the message
// entry_to_publish gives for an unsigned entry: the variable, `optiml cache keygen`, the
// trusted-keys file) or when its file is not a usable key.
SigningKey required_signing_key();

// The entry as it may be published: signed with `key` when given, else as it is if already
// signed. Throws CacheError when it is unsigned and no key is given, since no build would accept
// it (the message names OPTIML_SIGNING_KEY and `optiml cache keygen`).
Entry entry_to_publish(const Entry& entry, const std::optional<SigningKey>& key);

// Publishes `entry` to the remote of `config` (which must be read-write), signed with
// $OPTIML_SIGNING_KEY (or already signed), replacing what the remote holds under its key (a
// retune's new winner replaces the old). Returns false when the remote was unreachable or the
// entry could not be signed, after one line to `warn` saying why. For `optiml retune`.
bool publish_to_remote(const Entry& entry, const RemoteConfig& config, const Warn& warn);

// publish_to_remote as `optiml retune --publish`'s hook: throws std::runtime_error with the
// reason when an entry was not published, so the report's row says why.
std::function<void(const Entry&)> remote_publisher(const RemoteConfig& config);

}  // namespace optiml::cache
