// `optiml cache push|pull|sign`: entries moved by hand between a local cache and the remote,
// and signed in place (a seed before it is committed).
#pragma once

#include <string>
#include <vector>

#include "cache/remote_config.h"
#include "cache/signature.h"
#include "cache/store.h"
#include "cache/trust.h"

namespace optiml::cache {

struct Pushed {
    std::string key;
    bool uploaded;  // false: the remote already had it
};

// Uploads entries of `store` (all when `keys` is empty) to the remote, each signed with `key`
// (or as it is when already signed). Every entry is read, verified and signed before anything
// is uploaded. Throws CacheError (RemoteUnavailableError for the server) on the first failure.
std::vector<Pushed> push_entries(const Store& store, const std::vector<std::string>& keys,
                                 RemoteConfig config, const std::optional<SigningKey>& key);

// Downloads `keys` into `store`, each checked against its digests and `trusted` before it is
// written. Returns the keys stored (not those already present). Throws CacheError when one is
// absent, damaged or untrusted; entries before it are kept.
std::vector<std::string> pull_entries(Store& store, const std::vector<std::string>& keys,
                                      const RemoteConfig& config, const TrustedKeys& trusted);

// Signs entries of the cache folder `root` (all when `keys` is empty) in place with `key`;
// returns the keys whose manifest changed. Leaves no staging folder behind (for seeds).
std::vector<std::string> sign_entries(const std::filesystem::path& root,
                                      const std::vector<std::string>& keys, const SigningKey& key);

}  // namespace optiml::cache
