// Ed25519 signatures of cache entries, through OpenSSL (docs/caching.md, "Trust"). A tuning
// runner signs what it publishes; a build accepts a remote or seed entry only when a trusted
// key signed exactly its manifest and its files.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "cache/store.h"

struct evp_pkey_st;

namespace optiml::cache {

// The bytes an entry's signature covers, as 64 lowercase hex digits: compute_tagged_key over
//   ("optiml-signature", "1"), ("key", key), ("manifest", the manifest without "signature" as
//   compact JSON with sorted keys), then for each file in name order ("file.name", name),
//   ("file.sha256", SHA-256 of its bytes).
// `manifest` is the stored form (with "key" and "sha256", as the store writes it).
std::string signed_message(const std::string& key, const nlohmann::json& manifest,
                           const std::map<std::string, std::string>& files);

// Standard base64 of the raw 32-byte Ed25519 public key: how keys appear in manifests, .pub
// files and trusted-keys files.
using PublicKeyText = std::string;

class SigningKey {
  public:
    // Reads a PEM private key (as `optiml cache keygen` writes it). Throws CacheError naming the
    // file and the fix when it is missing, unreadable or not an Ed25519 key.
    static SigningKey load(const std::filesystem::path& pem_file);
    // The key of $OPTIML_SIGNING_KEY (a file path); nullopt when unset or empty.
    static std::optional<SigningKey> from_environment();

    PublicKeyText public_key() const;
    // The 64-byte signature of `message`, base64.
    std::string sign(const std::string& message) const;

  private:
    explicit SigningKey(evp_pkey_st* key);
    std::shared_ptr<evp_pkey_st> key_;
};

// Writes <dir>/<name>.pem (the private key, PKCS#8 PEM, mode 0600) and <dir>/<name>.pub (one
// line "ed25519 <public key> <comment>", ready for a trusted-keys file). Refuses to overwrite.
// Returns the .pub file's path.
std::filesystem::path write_key_pair(const std::filesystem::path& dir, const std::string& name,
                                     const std::string& comment);

// The entry with manifest["signature"] = {"algorithm": "ed25519", "public_key", "value"} over
// its stored manifest (adds "key" and "sha256" as the store would; an old signature is replaced).
Entry signed_entry(const Entry& entry, const SigningKey& key);

// Whether `signature` (base64) by `public_key` (base64) signs `message`. False for malformed
// input too.
bool signature_matches(const PublicKeyText& public_key, const std::string& signature,
                       const std::string& message);

}  // namespace optiml::cache
