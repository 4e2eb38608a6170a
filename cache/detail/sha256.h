// Internal to cache/: incremental SHA-256 over OpenSSL's EVP API.
#pragma once

#include <memory>
#include <string>
#include <string_view>

struct evp_md_ctx_st;

namespace optiml::cache::detail {

class Sha256 {
  public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(std::string_view bytes);
    // Finishes the digest; the object must not be updated afterwards.
    std::string hex_digest();

  private:
    evp_md_ctx_st* context_;
};

}  // namespace optiml::cache::detail
