#include "driver/base/http_client.h"

#include <algorithm>
#include <cctype>
#include <mutex>

#include <curl/curl.h>

namespace optiml::base {

namespace {

bool same_name(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* user) {
    static_cast<HttpResponse*>(user)->body.append(data, size * count);
    return size * count;
}

// One header line per call, status lines included: a status line starts a response's headers
// anew, so that only the final response's remain (after a 100 Continue, say).
std::size_t read_header(char* data, std::size_t size, std::size_t count, void* user) {
    auto& headers = static_cast<HttpResponse*>(user)->headers;
    const std::string_view line(data, size * count);
    if (line.starts_with("HTTP/")) {
        headers.clear();
        return size * count;
    }
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) return size * count;  // the blank line that ends them
    std::string_view value = line.substr(colon + 1);
    const auto first = value.find_first_not_of(" \t");
    const auto last = value.find_last_not_of(" \t\r\n");
    value = first == std::string_view::npos ? std::string_view()
                                            : value.substr(first, last - first + 1);
    headers.emplace_back(std::string(line.substr(0, colon)), std::string(value));
    return size * count;
}

bool transient(CURLcode code) {
    switch (code) {
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_CONNECT:
        case CURLE_OPERATION_TIMEDOUT:
        case CURLE_SEND_ERROR:
        case CURLE_RECV_ERROR:
        case CURLE_GOT_NOTHING:
        case CURLE_PARTIAL_FILE:
        case CURLE_SSL_CONNECT_ERROR:
            return true;
        default:
            return false;
    }
}

// Frees the header list on every way out of request().
struct HeaderList {
    curl_slist* list = nullptr;
    ~HeaderList() { curl_slist_free_all(list); }
    void add(const std::string& header) { list = curl_slist_append(list, header.c_str()); }
};

}  // namespace

std::optional<std::string> HttpResponse::header(std::string_view name) const {
    for (auto it = headers.rbegin(); it != headers.rend(); ++it)
        if (same_name(it->first, name)) return it->second;
    return std::nullopt;
}

HttpClient::HttpClient(HttpOptions options) : options_(std::move(options)) {
    static std::once_flag initialized;  // libcurl wants one global start before any thread uses it
    std::call_once(initialized, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    curl_ = curl_easy_init();
    if (curl_ == nullptr) throw HttpError("libcurl could not start (curl_easy_init failed)");
}

HttpClient::~HttpClient() {
    curl_easy_cleanup(static_cast<CURL*>(curl_));
}

HttpResponse HttpClient::request(std::string_view method, const std::string& url,
                                 const std::vector<std::string>& headers, std::string_view body) {
    CURL* curl = static_cast<CURL*>(curl_);
    curl_easy_reset(curl);  // keeps the connection cache, drops the last request's options
    HttpResponse response;
    char error[CURL_ERROR_SIZE] = {};
    HeaderList lines;
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM (threads, builds)
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, options_.connect_timeout_ms);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, options_.timeout_ms);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    if (options_.max_response_bytes > 0)
        curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE,
                         static_cast<curl_off_t>(options_.max_response_bytes));
    if (!options_.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, options_.ca_file.c_str());
    for (const std::string& header : headers) lines.add(header);
    if (!options_.bearer_token.empty()) {
        lines.add("Authorization: Bearer " + options_.bearer_token);
    } else if (!options_.user.empty()) {
        curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
        curl_easy_setopt(curl, CURLOPT_USERNAME, options_.user.c_str());
        curl_easy_setopt(curl, CURLOPT_PASSWORD, options_.password.c_str());
    }
    const bool head = method == "HEAD";
    if (head) {
        curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    } else if (method != "GET") {
        if (method != "POST") {
            const std::string verb(method);
            curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, verb.c_str());  // copied by libcurl
        }
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data() != nullptr ? body.data() : "");
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    }
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);  // never to standard output
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, read_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, lines.list);
    const CURLcode code = curl_easy_perform(curl);
    if (code == CURLE_OK) {
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    } else {
        response.transport_error = error[0] != '\0' ? error : curl_easy_strerror(code);
        response.transient = transient(code);
        response.headers.clear();  // a part of an answer is no answer
        response.body.clear();
    }
    // The options point into this call's locals (the error buffer, the header list): none may
    // stay in the handle.
    curl_easy_reset(curl);
    return response;
}

std::optional<std::time_t> parse_http_date(const std::string& text) {
    const std::time_t when = curl_getdate(text.c_str(), nullptr);
    if (when < 0) return std::nullopt;
    return when;
}

}  // namespace optiml::base
