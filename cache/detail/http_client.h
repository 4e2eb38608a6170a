// Internal to cache/: GET, HEAD and PUT against the remote cache through libcurl, with the
// configured timeouts, credentials and CA. Messages it produces never carry a credential.
#pragma once

#include <string>

#include "cache/remote_config.h"

namespace optiml::cache::detail {

struct HttpResponse {
    long status = 0;              // the HTTP status; 0 when no response came back
    std::string body;             // GET only
    std::string transport_error;  // why no response came (refused, timed out, TLS), else empty
};

class HttpClient {
  public:
    explicit HttpClient(const RemoteConfig& config);
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    // `path` is appended to the base URL: "/ac/<key>", "/cas/<sha256>".
    HttpResponse get(const std::string& path);
    HttpResponse head(const std::string& path);
    HttpResponse put(const std::string& path, const std::string& body);

  private:
    enum class Method { kGet, kHead, kPut };
    HttpResponse perform(Method method, const std::string& path, const std::string* body);
    const RemoteConfig& config_;
    void* curl_;  // CURL*: one handle, so that requests reuse the connection
};

}  // namespace optiml::cache::detail
