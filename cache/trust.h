// Which entries a build may ship when they come from outside this machine (a seed folder or a
// remote cache): those signed by a key of the project's trusted-keys files (docs/caching.md,
// "Trust"). Local entries, tuned here, are not checked.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cache/backend.h"
#include "cache/signature.h"

namespace optiml::cache {

// An entry whose files match their digests but that no trusted key signed (or whose signature
// does not match what it holds). The message says which of these it is and what to do.
class UntrustedEntryError : public CacheError {
  public:
    using CacheError::CacheError;
};

// The name of the trusted-keys file beside a seed cache.
inline constexpr const char* kTrustedKeysFileName = "trusted-keys.txt";

class TrustedKeys {
  public:
    // Adds the keys of a trusted-keys file: one "ed25519 <base64 public key> <comment>" per line
    // (what `optiml cache keygen` writes into its .pub file); '#' lines and blank lines are
    // ignored. Returns false when the file does not exist. Throws CacheError naming the file,
    // the line and the expected form when a line is malformed.
    bool add_file(const std::filesystem::path& file);

    bool empty() const { return comments_.empty(); }
    bool contains(const PublicKeyText& key) const { return comments_.contains(key); }
    // The files read (for messages), in the order added.
    const std::vector<std::filesystem::path>& files() const { return files_; }

    // Throws UntrustedEntryError, naming `where` and the reason, unless a trusted key signed
    // exactly this entry's manifest and files: "unsigned", "signed by a key no trusted-keys
    // file lists", "signature does not match" (a file or the manifest changed after signing).
    void require_signed(const Entry& entry, const std::string& where) const;

  private:
    std::map<PublicKeyText, std::string> comments_;  // key -> its comment
    std::vector<std::filesystem::path> files_;
};

// A backend whose entries are shipped only when `keys` trusts them; the rest raise
// UntrustedEntryError (the lookup chain reports it and looks further). `label` ("seed",
// "remote") starts its messages.
class TrustedBackend final : public Backend {
  public:
    TrustedBackend(std::unique_ptr<Backend> inner, std::shared_ptr<const TrustedKeys> keys,
                   std::string label)
        : inner_(std::move(inner)), keys_(std::move(keys)), label_(std::move(label)) {}
    std::string location() const override { return inner_->location(); }
    bool writable() const override { return inner_->writable(); }
    std::optional<Entry> fetch(const std::string& key) override;
    bool publish(const Entry& entry) override { return inner_->publish(entry); }

  private:
    std::unique_ptr<Backend> inner_;
    std::shared_ptr<const TrustedKeys> keys_;
    std::string label_;
};

}  // namespace optiml::cache
