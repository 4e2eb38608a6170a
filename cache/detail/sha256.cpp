#include "cache/detail/sha256.h"

#include <array>
#include <stdexcept>

#include <openssl/evp.h>

#include "cache/key.h"
#include "cache/store.h"

namespace optiml::cache {
namespace detail {

namespace {
[[noreturn]] void fail(const char* what) {
    // Only reachable when OpenSSL itself is broken (e.g. a FIPS provider without SHA-256).
    throw CacheError(std::string("OpenSSL SHA-256 failed in ") + what);
}
}  // namespace

Sha256::Sha256() : context_(EVP_MD_CTX_new()) {
    if (context_ == nullptr) fail("EVP_MD_CTX_new");
    if (EVP_DigestInit_ex(context_, EVP_sha256(), nullptr) != 1) {
        EVP_MD_CTX_free(context_);
        fail("EVP_DigestInit_ex");
    }
}

Sha256::~Sha256() {
    EVP_MD_CTX_free(context_);
}

void Sha256::update(std::string_view bytes) {
    if (EVP_DigestUpdate(context_, bytes.data(), bytes.size()) != 1) fail("EVP_DigestUpdate");
}

std::string Sha256::hex_digest() {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(context_, digest.data(), &length) != 1) fail("EVP_DigestFinal_ex");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(2 * length);
    for (unsigned int i = 0; i < length; ++i) {
        hex.push_back(kHex[digest[i] >> 4]);
        hex.push_back(kHex[digest[i] & 0x0f]);
    }
    return hex;
}

}  // namespace detail

std::string sha256_hex(const std::string& bytes) {
    detail::Sha256 hash;
    hash.update(bytes);
    return hash.hex_digest();
}

}  // namespace optiml::cache
