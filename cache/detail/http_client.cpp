#include "cache/detail/http_client.h"

#include <mutex>

#include <curl/curl.h>

#include "cache/store.h"

namespace optiml::cache::detail {

namespace {

// Larger answers are refused rather than buffered: an entry's files are CUBINs and PTX.
constexpr curl_off_t kMaxDownloadBytes = curl_off_t{1} << 30;

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* user) {
    static_cast<std::string*>(user)->append(data, size * count);
    return size * count;
}

// Frees the header list on every way out of perform().
struct HeaderList {
    curl_slist* list = nullptr;
    ~HeaderList() { curl_slist_free_all(list); }
    void add(const std::string& header) { list = curl_slist_append(list, header.c_str()); }
};

}  // namespace

HttpClient::HttpClient(const RemoteConfig& config) : config_(config) {
    static std::once_flag initialized;
    std::call_once(initialized, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    curl_ = curl_easy_init();
    if (curl_ == nullptr) throw CacheError("libcurl could not start (curl_easy_init failed)");
}

HttpClient::~HttpClient() {
    curl_easy_cleanup(static_cast<CURL*>(curl_));
}

HttpResponse HttpClient::get(const std::string& path) {
    return perform(Method::kGet, path, nullptr);
}

HttpResponse HttpClient::head(const std::string& path) {
    return perform(Method::kHead, path, nullptr);
}

HttpResponse HttpClient::put(const std::string& path, const std::string& body) {
    return perform(Method::kPut, path, &body);
}

HttpResponse HttpClient::perform(Method method, const std::string& path, const std::string* body) {
    CURL* curl = static_cast<CURL*>(curl_);
    curl_easy_reset(curl);  // keeps the connection cache, drops the last request's options
    HttpResponse response;
    char error[CURL_ERROR_SIZE] = {};
    HeaderList headers;
    const std::string url = config_.url + path;
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM (threads, builds)
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, config_.connect_timeout_ms);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, config_.request_timeout_ms);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, kMaxDownloadBytes);
    if (!config_.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, config_.ca_file.c_str());
    if (!config_.bearer_token.empty()) {
        headers.add("Authorization: Bearer " + config_.bearer_token);
    } else if (!config_.user.empty()) {
        curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
        curl_easy_setopt(curl, CURLOPT_USERNAME, config_.user.c_str());
        curl_easy_setopt(curl, CURLOPT_PASSWORD, config_.password.c_str());
    }
    switch (method) {
        case Method::kGet:
            curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);
            curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
            break;
        case Method::kHead:
            curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
            break;
        case Method::kPut:
            curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "PUT");
            curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body->data());
            curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                             static_cast<curl_off_t>(body->size()));
            headers.add("Content-Type: application/octet-stream");
            headers.add("Expect:");  // no 100-continue round trip for small blobs
            // The answer to a PUT is not needed, and must not reach standard output.
            curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);
            curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
            break;
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.list);
    const CURLcode code = curl_easy_perform(curl);
    if (code != CURLE_OK) {
        response.transport_error = error[0] != '\0' ? error : curl_easy_strerror(code);
        return response;
    }
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    if (method == Method::kPut) response.body.clear();
    return response;
}

}  // namespace optiml::cache::detail
