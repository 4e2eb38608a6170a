#include "cache/build_cache.h"

#include <cstdlib>

#include "cache/detail/remote_http.h"

namespace optiml::cache {

std::shared_ptr<const TrustedKeys> load_trusted_keys(
    const std::vector<std::filesystem::path>& seeds,
    const std::vector<std::filesystem::path>& extra_files) {
    auto keys = std::make_shared<TrustedKeys>();
    for (const auto& seed : seeds) keys->add_file(seed / kTrustedKeysFileName);
    std::vector<std::filesystem::path> required = extra_files;
    if (const char* env = std::getenv("OPTIML_TRUSTED_KEYS"); env && *env) required.push_back(env);
    for (const auto& file : required) {
        if (!keys->add_file(file)) {
            throw CacheError(file.string() +
                             ": no such trusted-keys file (given by TRUSTED_KEYS, --trusted-keys "
                             "or OPTIML_TRUSTED_KEYS); create it with the .pub lines of the "
                             "tuners you trust, or stop naming it");
        }
    }
    return keys;
}

BuildCache::BuildCache(const BuildCacheConfig& config, Warn warn)
    : local_(config.local_dir.empty() ? default_cache_dir() : config.local_dir),
      warn_(std::move(warn)),
      remote_config_(config.remote) {
    // A seed's trusted-keys file counts even before the seed has entries (a project whose
    // results come from the remote keeps it there); a seed folder without entries/ (only its
    // README, say) has nothing else to offer.
    const std::shared_ptr<const TrustedKeys> keys =
        load_trusted_keys(config.seeds, config.trusted_key_files);
    std::vector<std::filesystem::path> seeds;
    for (const auto& seed : config.seeds)
        if (std::filesystem::is_directory(seed / "entries")) seeds.push_back(seed);

    // A local cache that cannot be written (a read-only mount, a full disk) still serves what
    // it holds; entries found further on are used without being kept, and nothing tuned is
    // stored. Said once here, not once per entry that could not be kept.
    if (const std::optional<std::string> problem = local_.write_problem()) {
        local_writable_ = false;
        warn_("the local cache " + local_.root().string() + " cannot be written (" + *problem +
              "): entries from a seed or the remote are used but not kept there, and no tuning "
              "result is stored; the build goes on");
    }
    auto local = std::make_unique<LocalBackend>(local_);
    Backend* local_backend = local_writable_ ? local.get() : nullptr;
    chain_.add(std::move(local), "cache");
    for (const auto& seed : seeds) {
        chain_.add(
            std::make_unique<TrustedBackend>(
                std::make_unique<LocalBackend>(Store(seed, /*read_only=*/true)), keys, "seed"),
            "seed");
    }
    if (remote_config_) {
        auto remote = std::make_unique<RemoteHttpBackend>(*remote_config_, local_.root(),
                                                          /*replace_existing=*/true);
        remote_ = remote.get();
        chain_.add(std::make_unique<TrustedBackend>(std::move(remote), keys, "remote"), "remote",
                   local_backend);
    }
}

BuildCache::~BuildCache() = default;

std::optional<Found> BuildCache::fetch(const std::string& key) const {
    return chain_.fetch(key, warn_);
}

bool BuildCache::store(const Entry& entry) {
    if (local_writable_) {  // else said when the build began
        try {
            local_.remove(entry.key);  // a retune replaces the old result
            local_.put(entry);
        } catch (const CacheError& e) {
            warn_("could not store the result: " + std::string(e.what()));
        }
    }
    if (remote_ == nullptr || !remote_config_ || remote_config_->mode != RemoteMode::kReadWrite)
        return false;
    try {
        if (!remote_->available()) return false;  // already reported
        // A tuning's result replaces what the remote holds under its key (a retune).
        return remote_->publish(entry_to_publish(entry, SigningKey::from_environment()));
    } catch (const CacheError& e) {
        warn_("not published to the remote cache: " + std::string(e.what()));
        return false;
    }
}

namespace {

// Why nothing unsigned is published, after `what` is missing, and the fix.
CacheError unsigned_refused(const std::string& what) {
    return CacheError(what +
                      ", and builds accept only signed entries from a remote; set "
                      "OPTIML_SIGNING_KEY to the tuner's private key (create one with `optiml "
                      "cache keygen --out <dir>`) and list its public key in the project's " +
                      std::string(kTrustedKeysFileName));
}

}  // namespace

SigningKey required_signing_key() {
    std::optional<SigningKey> key = SigningKey::from_environment();
    if (!key) throw unsigned_refused("OPTIML_SIGNING_KEY is not set");
    return std::move(*key);
}

Entry entry_to_publish(const Entry& entry, const std::optional<SigningKey>& key) {
    if (key) return signed_entry(entry, *key);
    if (entry.manifest.contains("signature")) return entry;
    throw unsigned_refused("entry " + entry.key.substr(0, 12) + " is unsigned");
}

bool publish_to_remote(const Entry& entry, const RemoteConfig& config, const Warn& warn) {
    try {
        RemoteHttpBackend remote(config, {}, /*replace_existing=*/true);
        return remote.publish(entry_to_publish(entry, SigningKey::from_environment()));
    } catch (const CacheError& e) {
        warn("not published to the remote cache: " + std::string(e.what()));
        return false;
    }
}

std::function<void(const Entry&)> remote_publisher(const RemoteConfig& config) {
    return [config](const Entry& entry) {
        std::string why;
        if (!publish_to_remote(entry, config, [&why](const std::string& line) { why = line; }))
            throw std::runtime_error(why);
    };
}

}  // namespace optiml::cache
