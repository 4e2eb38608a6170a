// The one libcurl wrapper: a request (method, URL, headers, body) and its answer (status, body,
// headers, or why none came). One handle per client, reused, so that requests to one server share
// the connection; a client is used by one thread at a time. Only http:// and https:// URLs; a
// redirect is never followed (an Authorization header must not travel to another host).
// Credentials go into the request only: no message of this client carries one, and what a room
// adds to a message from a URL or a server's words is that room's to redact.
// Its own target, optiml_base_http (driver/base/CMakeLists.txt): the rest of base is linked into
// the profiler library loaded into users' programs, which must not depend on libcurl.
#pragma once

#include <ctime>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace optiml::base {

// libcurl could not start (curl_easy_init failed): the constructor's only error.
class HttpError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct HttpOptions {
    long connect_timeout_ms = 0;  // 0: libcurl's default
    long timeout_ms = 0;          // the whole request; 0: none
    std::string ca_file;          // CA bundle for https; empty: the system's
    // Credentials: a bearer token ("Authorization: Bearer ...") wins over basic authentication
    // (`user` and `password`); both empty: none.
    std::string bearer_token;
    std::string user;
    std::string password;
    // A larger answer is refused (a transport error) rather than buffered; 0: no limit.
    long long max_response_bytes = 0;
};

struct HttpResponse {
    long status = 0;              // the HTTP status; 0 when no response came back
    std::string body;             // empty for HEAD
    std::string transport_error;  // why no response came (refused, timed out, TLS), else empty
    // Whether another try may not meet the transport error: the name did not resolve, the
    // connection was refused, lost or timed out, the TLS handshake failed.
    bool transient = false;
    // The final response's headers in the order received, values trimmed of blanks.
    std::vector<std::pair<std::string, std::string>> headers;

    // The last header called `name` (case-insensitive); nullopt when there is none.
    std::optional<std::string> header(std::string_view name) const;
};

class HttpClient {
  public:
    // Throws HttpError when libcurl cannot start.
    explicit HttpClient(HttpOptions options = {});
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    const HttpOptions& options() const { return options_; }

    // `method`: GET and HEAD send no body (`body` is ignored); any other method ("POST", "PUT")
    // sends `body`, even an empty one. `headers` are whole lines ("Content-Type: text/plain";
    // "Expect:" removes one libcurl would add). Never throws for a failed request: the answer says.
    HttpResponse request(std::string_view method, const std::string& url,
                         const std::vector<std::string>& headers = {}, std::string_view body = {});

  private:
    HttpOptions options_;
    void* curl_;  // CURL*
};

// An HTTP date ("Wed, 21 Oct 2015 07:28:00 GMT", and the other forms HTTP allows) as a time;
// nullopt when `text` is not one.
std::optional<std::time_t> parse_http_date(const std::string& text);

}  // namespace optiml::base
