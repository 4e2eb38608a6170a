#include "cache/signature.h"

#include <cstdlib>

#include <openssl/evp.h>
#include <openssl/pem.h>

#include "cache/detail/file_io.h"
#include "cache/detail/manifest.h"
#include "cache/key.h"

namespace optiml::cache {

namespace {

constexpr std::size_t kPublicKeyBytes = 32;
constexpr std::size_t kSignatureBytes = 64;

std::string base64(const std::string& bytes) {
    std::string text(4 * ((bytes.size() + 2) / 3), '\0');
    const int length = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(text.data()),
                                       reinterpret_cast<const unsigned char*>(bytes.data()),
                                       static_cast<int>(bytes.size()));
    text.resize(static_cast<std::size_t>(length));
    return text;
}

// nullopt when `text` is not canonical base64 of exactly `expected` bytes.
std::optional<std::string> unbase64(const std::string& text, std::size_t expected) {
    if (text.size() != 4 * ((expected + 2) / 3)) return std::nullopt;
    std::string bytes(text.size() / 4 * 3, '\0');
    const int length = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(bytes.data()),
                                       reinterpret_cast<const unsigned char*>(text.data()),
                                       static_cast<int>(text.size()));
    if (length < 0) return std::nullopt;
    bytes.resize(expected);  // EVP_DecodeBlock counts the padding as zero bytes
    if (base64(bytes) != text) return std::nullopt;
    return bytes;
}

std::shared_ptr<evp_pkey_st> own(EVP_PKEY* key) {
    return std::shared_ptr<evp_pkey_st>(key, EVP_PKEY_free);
}

std::string raw_public_key(EVP_PKEY* key) {
    std::string raw(kPublicKeyBytes, '\0');
    std::size_t length = raw.size();
    if (EVP_PKEY_get_raw_public_key(key, reinterpret_cast<unsigned char*>(raw.data()), &length) !=
            1 ||
        length != kPublicKeyBytes) {
        throw CacheError("OpenSSL could not read an Ed25519 public key");
    }
    return raw;
}

std::string pem_of_private_key(EVP_PKEY* key) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    if (!bio ||
        PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        throw CacheError("OpenSSL could not write the private key as PEM");
    char* data = nullptr;
    const long length = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(length));
}

std::string canonical_json(const nlohmann::json& json) {
    // nlohmann's objects keep keys sorted, so dump() is canonical for one parsed value.
    return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string signed_message(const std::string& key, const nlohmann::json& manifest,
                           const std::map<std::string, std::string>& files) {
    nlohmann::json unsigned_manifest = manifest;
    unsigned_manifest.erase("signature");
    std::vector<TaggedField> fields = {
        {"optiml-signature", "1"}, {"key", key}, {"manifest", canonical_json(unsigned_manifest)}};
    for (const auto& [name, bytes] : files) {  // std::map: name order
        fields.emplace_back("file.name", name);
        fields.emplace_back("file.sha256", sha256_hex(bytes));
    }
    return compute_tagged_key(fields);
}

SigningKey::SigningKey(evp_pkey_st* key) : key_(own(key)) {}

SigningKey SigningKey::load(const std::filesystem::path& pem_file) {
    const std::string fix =
        "; create one with `optiml cache keygen --out <dir>` and point "
        "OPTIML_SIGNING_KEY at its .pem file";
    std::optional<std::string> pem = detail::read_file(pem_file);
    if (!pem) throw CacheError(pem_file.string() + ": no such signing key file" + fix);
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(
        BIO_new_mem_buf(pem->data(), static_cast<int>(pem->size())), BIO_free);
    EVP_PKEY* key = bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr;
    if (key == nullptr) throw CacheError(pem_file.string() + ": not a PEM private key" + fix);
    SigningKey signing_key(key);
    if (EVP_PKEY_get_id(key) != EVP_PKEY_ED25519)
        throw CacheError(pem_file.string() + ": not an Ed25519 key" + fix);
    return signing_key;
}

std::optional<SigningKey> SigningKey::from_environment() {
    const char* path = std::getenv("OPTIML_SIGNING_KEY");
    if (path == nullptr || *path == '\0') return std::nullopt;
    return load(path);
}

PublicKeyText SigningKey::public_key() const {
    return base64(raw_public_key(key_.get()));
}

std::string SigningKey::sign(const std::string& message) const {
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(),
                                                                    EVP_MD_CTX_free);
    std::string signature(kSignatureBytes, '\0');
    std::size_t length = signature.size();
    // Ed25519 hashes internally: no digest is named.
    if (!context || EVP_DigestSignInit(context.get(), nullptr, nullptr, nullptr, key_.get()) != 1 ||
        EVP_DigestSign(context.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                       reinterpret_cast<const unsigned char*>(message.data()),
                       message.size()) != 1) {
        throw CacheError("OpenSSL could not sign with the Ed25519 key");
    }
    return base64(signature);
}

bool signature_matches(const PublicKeyText& public_key, const std::string& signature,
                       const std::string& message) {
    const std::optional<std::string> raw_key = unbase64(public_key, kPublicKeyBytes);
    const std::optional<std::string> raw_signature = unbase64(signature, kSignatureBytes);
    if (!raw_key || !raw_signature) return false;
    auto key = own(EVP_PKEY_new_raw_public_key(
        EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(raw_key->data()),
        raw_key->size()));
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(),
                                                                    EVP_MD_CTX_free);
    return key && context &&
           EVP_DigestVerifyInit(context.get(), nullptr, nullptr, nullptr, key.get()) == 1 &&
           EVP_DigestVerify(
               context.get(), reinterpret_cast<const unsigned char*>(raw_signature->data()),
               raw_signature->size(), reinterpret_cast<const unsigned char*>(message.data()),
               message.size()) == 1;
}

std::filesystem::path write_key_pair(const std::filesystem::path& dir, const std::string& name,
                                     const std::string& comment) {
    const std::filesystem::path private_file = dir / (name + ".pem");
    const std::filesystem::path public_file = dir / (name + ".pub");
    for (const auto& file : {private_file, public_file}) {
        if (std::filesystem::exists(file))
            throw CacheError(file.string() +
                             " already exists; keygen never overwrites a key (remove it first, or "
                             "choose another --out or --name)");
    }
    std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)> context(
        EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nullptr), EVP_PKEY_CTX_free);
    EVP_PKEY* generated = nullptr;
    if (!context || EVP_PKEY_keygen_init(context.get()) != 1 ||
        EVP_PKEY_keygen(context.get(), &generated) != 1) {
        throw CacheError("OpenSSL could not generate an Ed25519 key");
    }
    auto key = own(generated);
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error) throw CacheError(dir.string() + ": cannot create directory: " + error.message());
    detail::write_file_synced(private_file, pem_of_private_key(key.get()), 0600);
    detail::write_file_synced(
        public_file, "ed25519 " + base64(raw_public_key(key.get())) + " " + comment + "\n");
    return public_file;
}

Entry signed_entry(const Entry& entry, const SigningKey& key) {
    Entry signed_copy = entry;
    signed_copy.manifest.erase("signature");
    signed_copy.manifest = detail::manifest_to_store(signed_copy);
    const std::string message =
        signed_message(signed_copy.key, signed_copy.manifest, signed_copy.files);
    signed_copy.manifest["signature"] = {
        {"algorithm", "ed25519"}, {"public_key", key.public_key()}, {"value", key.sign(message)}};
    return signed_copy;
}

}  // namespace optiml::cache
