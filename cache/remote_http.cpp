#include "cache/detail/remote_http.h"

#include <chrono>
#include <memory>
#include <string_view>
#include <vector>

#include "cache/detail/entry_reader.h"
#include "cache/detail/file_io.h"
#include "cache/detail/layout.h"
#include "cache/detail/manifest.h"
#include "cache/detail/remote_fetch.h"
#include "cache/key.h"

namespace optiml::cache {

namespace {

std::string http_reason(long status) {
    switch (status) {
        case 401:
            return "401 Unauthorized";
        case 403:
            return "403 Forbidden";
        case 404:
            return "404 Not Found";
        case 500:
            return "500 Internal Server Error";
        case 502:
            return "502 Bad Gateway";
        case 503:
            return "503 Service Unavailable";
        case 507:
            return "507 Insufficient Storage";
        default:
            return std::to_string(status);
    }
}

bool is_success(long status) {
    return status >= 200 && status < 300;
}

// Larger answers are refused rather than buffered: an entry's files are CUBINs and PTX.
constexpr long long kMaxDownloadBytes = 1LL << 30;

std::unique_ptr<base::HttpClient> http_client(const RemoteConfig& config) {
    base::HttpOptions options;
    options.connect_timeout_ms = config.connect_timeout_ms;
    options.timeout_ms = config.request_timeout_ms;
    options.ca_file = config.ca_file;
    options.bearer_token = config.bearer_token;
    options.user = config.user;
    options.password = config.password;
    options.max_response_bytes = kMaxDownloadBytes;
    try {
        return std::make_unique<base::HttpClient>(std::move(options));
    } catch (const base::HttpError& e) {
        throw CacheError(e.what());
    }
}

}  // namespace

RemoteHttpBackend::RemoteHttpBackend(RemoteConfig config, std::filesystem::path state_dir,
                                     bool replace_existing)
    : config_(std::move(config)),
      state_dir_(std::move(state_dir)),
      replace_existing_(replace_existing),
      http_(http_client(config_)) {
    // Another process of this build found the remote down a moment ago: skip it quietly, it
    // already warned.
    std::error_code error;
    const auto marked = std::filesystem::last_write_time(down_marker(), error);
    if (!error && std::filesystem::file_time_type::clock::now() - marked <
                      std::chrono::seconds(kRemoteRetrySeconds)) {
        unavailable_ = true;
    }
}

RemoteHttpBackend::~RemoteHttpBackend() = default;

std::filesystem::path RemoteHttpBackend::down_marker() const {
    if (state_dir_.empty()) return {};
    return state_dir_ / "remote-down" / sha256_hex(config_.url).substr(0, 16);
}

base::HttpResponse RemoteHttpBackend::request(const char* method, const std::string& path,
                                              const std::string& body) {
    std::vector<std::string> headers;
    if (std::string_view(method) == "PUT") {
        headers = {"Content-Type: application/octet-stream",
                   "Expect:"};  // no 100-continue round trip for small blobs
    }
    return http_->request(method, config_.url + path, headers, body);
}

void RemoteHttpBackend::fail(const std::string& what, const std::string& method,
                             const std::string& path, long status,
                             const std::string& transport_error, bool mark_down) {
    if (!mark_down) {
        unwritable_ = true;
    } else {
        unavailable_ = true;
        if (!state_dir_.empty()) {
            std::error_code ignored;
            std::filesystem::create_directories(down_marker().parent_path(), ignored);
            detail::touch(down_marker());
        }
    }
    std::string message = "remote cache " + config_.url + ": " + what + " (" + method + " " + path;
    if (!transport_error.empty()) {
        message += ": " + transport_error + "; connect timeout " +
                   std::to_string(config_.connect_timeout_ms) + " ms, request timeout " +
                   std::to_string(config_.request_timeout_ms) + " ms)";
    } else {
        message += ": HTTP " + http_reason(status) + ")";
    }
    if (status == 401) {
        message += config_.bearer_token.empty() && config_.user.empty()
                       ? "; the server wants credentials: set OPTIML_REMOTE_CACHE_TOKEN (a "
                         "bearer token), or OPTIML_REMOTE_CACHE_USER and "
                         "OPTIML_REMOTE_CACHE_PASSWORD (basic authentication)"
                       : "; the server refused the credentials of OPTIML_REMOTE_CACHE_TOKEN or "
                         "OPTIML_REMOTE_CACHE_USER/OPTIML_REMOTE_CACHE_PASSWORD: set valid ones";
    } else if (status == 403) {
        message += "; the credentials lack the right to " +
                   std::string(method == "PUT" ? "write (a read-write token is needed)" : "read");
    }
    throw RemoteUnavailableError(
        message + (mark_down ? "; not using it for " + std::to_string(kRemoteRetrySeconds) + " s"
                             : "; no more uploads to it from this process (it still serves "
                               "reads)"));
}

std::optional<Entry> RemoteHttpBackend::fetch(const std::string& key) {
    detail::require_valid_key(key);
    if (unavailable_) return std::nullopt;
    // What the answers mean is remote_fetch.h's; how they travel and what an unusable one does
    // to the backend are this class's.
    return detail::entry_from_answers(
        config_.url, key, [this](const std::string& path) { return request("GET", path); },
        [this](const std::string& path, const base::HttpResponse& response) {
            fail("cannot read", "GET", path, response.status, response.transport_error);
        });
}

bool RemoteHttpBackend::contains(const std::string& key) {
    detail::require_valid_key(key);
    if (unavailable_) return false;
    const std::string path = "/ac/" + key;
    const base::HttpResponse response = request("HEAD", path);
    if (response.status == 404) return false;
    if (!is_success(response.status))
        fail("cannot read", "HEAD", path, response.status, response.transport_error);
    return true;
}

void RemoteHttpBackend::put(const std::string& path, const std::string& body) {
    const base::HttpResponse response = request("PUT", path, body);
    // A server that answered (a full disk's 507 or 500, a 403) still serves reads: only this
    // process's uploads stop, and other builds keep reading from it.
    if (!is_success(response.status))
        fail("cannot write", "PUT", path, response.status, response.transport_error,
             /*mark_down=*/!response.transport_error.empty());
}

bool RemoteHttpBackend::publish(const Entry& entry) {
    if (config_.mode != RemoteMode::kReadWrite) {
        throw CacheError(
            "remote cache " + config_.url +
            " is read-only here; uploading needs mode read-write "
            "(REMOTE_CACHE_MODE read-write, --remote-cache-mode read-write or "
            "OPTIML_REMOTE_CACHE_MODE=read-write), meant for the CI runners that tune");
    }
    detail::require_valid_key(entry.key);
    const nlohmann::json manifest = detail::manifest_to_store(entry);
    if (unavailable_ || unwritable_) return false;
    if (!replace_existing_ && contains(entry.key)) return false;
    for (const auto& [name, digest] : manifest["sha256"].items()) {
        const std::string path = "/cas/" + digest.get<std::string>();
        const base::HttpResponse there = request("HEAD", path);
        if (there.status == 200) continue;  // content-addressed: the same bytes are there
        if (there.status != 404 && !is_success(there.status))
            fail("cannot read", "HEAD", path, there.status, there.transport_error);
        put(path, entry.files.at(name));
    }
    put("/ac/" + entry.key, detail::serialize_manifest(manifest));
    return true;
}

}  // namespace optiml::cache
