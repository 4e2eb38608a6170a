#include "driver/llm/detail/http_chat.h"

#include <chrono>
#include <cmath>
#include <ctime>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <curl/curl.h>
#include <nlohmann/json.hpp>

#include "driver/llm/detail/key_redaction.h"

namespace optiml::llm {
namespace {

using nlohmann::json;

// libcurl wants one global initialisation before any thread uses it.
void init_curl_once() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Response {
    CURLcode code = CURLE_OK;
    std::string transport_error;
    long status = 0;
    std::string body;
    std::optional<std::string> retry_after;
};

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* user) {
    static_cast<Response*>(user)->body.append(data, size * count);
    return size * count;
}

std::size_t read_header(char* data, std::size_t size, std::size_t count, void* user) {
    const std::string line(data, size * count);
    constexpr std::string_view name = "retry-after:";
    if (line.size() > name.size()) {
        std::string lower = line.substr(0, name.size());
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower == name) {
            std::string value = line.substr(name.size());
            const auto first = value.find_first_not_of(" \t");
            const auto last = value.find_last_not_of(" \t\r\n");
            static_cast<Response*>(user)->retry_after =
                first == std::string::npos ? std::string() : value.substr(first, last - first + 1);
        }
    }
    return size * count;
}

struct CurlDeleter {
    void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};
struct SlistDeleter {
    void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

Response post(const std::string& url, const std::string& body, const LlmConfig& config) {
    init_curl_once();
    std::unique_ptr<CURL, CurlDeleter> handle(curl_easy_init());
    Response response;
    if (!handle) {
        response.code = CURLE_FAILED_INIT;
        response.transport_error = "libcurl could not start a transfer";
        return response;
    }
    curl_slist* raw_headers = curl_slist_append(nullptr, "Content-Type: application/json");
    raw_headers = curl_slist_append(raw_headers, "Accept: application/json");
    // libcurl asks large POSTs to wait for "100 Continue"; servers that never send it would
    // cost a second per exchange.
    raw_headers = curl_slist_append(raw_headers, "Expect:");
    // The one place the key goes: this header, sent to the configured endpoint.
    if (!config.api_key.empty())
        raw_headers =
            curl_slist_append(raw_headers, ("Authorization: Bearer " + config.api_key).c_str());
    std::unique_ptr<curl_slist, SlistDeleter> headers(raw_headers);
    char error_buffer[CURL_ERROR_SIZE] = {};
    CURL* h = handle.get();
    curl_easy_setopt(h, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM, safe in threads
    const CurlTimeouts timeouts = curl_timeouts(config);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, timeouts.connect_ms);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeouts.total_ms);
    // A redirect could carry the Authorization header elsewhere; an API root does not redirect.
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, append_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &response);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, read_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, &response);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_buffer);
    response.code = curl_easy_perform(h);
    if (response.code != CURLE_OK) {
        response.transport_error =
            error_buffer[0] != '\0' ? std::string(error_buffer) : curl_easy_strerror(response.code);
        return response;
    }
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &response.status);
    return response;
}

// The server's own explanation from an error body, short enough for one line, without the key
// (redacted before the cut, so that no part of it is left).
std::string server_message(const std::string& body, const std::string& key) {
    std::string message;
    const json parsed = json::parse(body, nullptr, false);
    if (parsed.is_object() && parsed.contains("error")) {
        const json& error = parsed["error"];
        if (error.is_object() && error.contains("message") && error["message"].is_string())
            message = error["message"].get<std::string>();
        else if (error.is_string())
            message = error.get<std::string>();
    }
    if (message.empty()) message = body;
    message = redact_key(std::move(message), key);
    for (char& c : message)
        if (c == '\n' || c == '\r') c = ' ';
    constexpr std::size_t kLimit = 300;
    if (message.size() > kLimit) message = message.substr(0, kLimit) + "...";
    return message;
}

bool quota_exhausted(const std::string& body) {
    const json parsed = json::parse(body, nullptr, false);
    if (!parsed.is_object() || !parsed.contains("error") || !parsed["error"].is_object())
        return body.find("insufficient_quota") != std::string::npos;
    const json& error = parsed["error"];
    for (const char* field : {"code", "type"})
        if (error.contains(field) && error[field] == "insufficient_quota") return true;
    return false;
}

bool retryable_transport(CURLcode code) {
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

// Retry-After is seconds or an HTTP date; nullopt when it is neither.
std::optional<double> retry_after_seconds(const std::string& value) {
    std::size_t used = 0;
    try {
        const double seconds = std::stod(value, &used);
        if (used == value.size() && seconds >= 0) return seconds;
    } catch (const std::exception&) {
    }
    const std::time_t when = curl_getdate(value.c_str(), nullptr);
    if (when < 0) return std::nullopt;
    return std::max(0.0, std::difftime(when, std::time(nullptr)));
}

std::string seconds_text(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, seconds < 100 ? "%.3g s" : "%.0f s", seconds);
    return text;
}

std::string trimmed_base(std::string url) {
    while (!url.empty() && url.back() == '/') url.pop_back();
    return url;
}

}  // namespace

std::string chat_request_body(const ChatRequest& request, const std::string& default_model) {
    json body = {{"model", request.model.empty() ? default_model : request.model},
                 {"messages", json::array()},
                 {"temperature", request.temperature},
                 {"stream", false}};
    for (const Message& message : request.messages)
        body["messages"].push_back({{"role", message.role}, {"content", message.content}});
    if (request.max_tokens > 0) body["max_tokens"] = request.max_tokens;
    return body.dump();
}

ChatReply parse_chat_reply(const std::string& body, const std::string& api_key) {
    const json parsed = json::parse(body, nullptr, false);
    if (parsed.is_discarded())
        throw LlmError("the endpoint answered HTTP 200 with a body that is not JSON (" +
                       std::to_string(body.size()) + " bytes); it is not taken as model output");
    if (!parsed.is_object())
        throw LlmError("the endpoint's reply is not a JSON object; expected a chat.completion");
    if (parsed.contains("error"))
        throw LlmError("the endpoint answered HTTP 200 with an error object: " +
                       server_message(body, api_key));
    const auto choices = parsed.find("choices");
    if (choices == parsed.end() || !choices->is_array() || choices->empty() ||
        !(*choices)[0].is_object())
        throw LlmError("the endpoint's reply has no choices[0]; expected a chat.completion");
    const json& choice = (*choices)[0];
    const auto message = choice.find("message");
    if (message == choice.end() || !message->is_object() || !message->contains("content") ||
        !(*message)["content"].is_string())
        throw LlmError("the endpoint's reply has no string choices[0].message.content");
    ChatReply reply;
    reply.content = (*message)["content"].get<std::string>();
    if (parsed.contains("model") && parsed["model"].is_string())
        reply.model = parsed["model"].get<std::string>();
    if (const auto usage = parsed.find("usage"); usage != parsed.end() && usage->is_object()) {
        if (usage->contains("prompt_tokens") && (*usage)["prompt_tokens"].is_number_integer())
            reply.usage.prompt_tokens = (*usage)["prompt_tokens"].get<long>();
        if (usage->contains("completion_tokens") &&
            (*usage)["completion_tokens"].is_number_integer())
            reply.usage.completion_tokens = (*usage)["completion_tokens"].get<long>();
    }
    return reply;
}

CurlTimeouts curl_timeouts(const LlmConfig& config) {
    return {static_cast<long>(std::ceil(config.connect_timeout_s * 1000)),
            static_cast<long>(std::ceil(config.timeout_s * 1000))};
}

HttpChat::HttpChat(LlmConfig config, std::function<void(const std::string&)> note, RetrySleep sleep)
    : config_(std::move(config)), note_(std::move(note)), sleep_(std::move(sleep)) {
    if (!sleep_)
        sleep_ = [](std::chrono::duration<double> wait) { std::this_thread::sleep_for(wait); };
    validate(config_);
    if (config_.base_url.empty())
        throw LlmError("no LLM endpoint: set OPTIML_LLM_BASE_URL (or --llm-base-url)");
    url_ = trimmed_base(config_.base_url) + "/chat/completions";
}

ChatReply HttpChat::complete(const ChatRequest& request) {
    const std::string body = chat_request_body(request, config_.model);
    // Every part of a message that OptiML did not write goes through redact_key: the URL (a key
    // may sit in its query), libcurl's words and the server's.
    const std::string where = "LLM endpoint " + redact_key(url_, config_.api_key);
    double backoff = config_.initial_backoff_s;
    for (int attempt = 1;; ++attempt) {
        const Response response = post(url_, body, config_);
        std::string problem;  // a retryable failure of this try
        std::optional<double> asked_wait;
        if (response.code != CURLE_OK) {
            problem = redact_key(response.transport_error, config_.api_key);
            if (!retryable_transport(response.code)) throw LlmError(where + ": " + problem);
        } else if (response.status == 200) {
            try {
                return parse_chat_reply(response.body, config_.api_key);
            } catch (const LlmError& e) {
                throw LlmError(where + ": " + e.what());
            }
        } else if (response.status == 401 || response.status == 403) {
            throw LlmError(where + " refused the request (HTTP " + std::to_string(response.status) +
                           ": " + server_message(response.body, config_.api_key) +
                           "); set OPTIML_LLM_API_KEY to a valid API key for it");
        } else if (response.status == 429 && quota_exhausted(response.body)) {
            throw LlmError(where + ": the account's quota is exhausted (HTTP 429: " +
                           server_message(response.body, config_.api_key) +
                           "); add credit or use another key or endpoint");
        } else if (response.status == 429 || response.status == 408 || response.status >= 500) {
            problem = "HTTP " + std::to_string(response.status) + ": " +
                      server_message(response.body, config_.api_key);
            if (response.retry_after) asked_wait = retry_after_seconds(*response.retry_after);
        } else {
            throw LlmError(where + " rejected the request (HTTP " +
                           std::to_string(response.status) + ": " +
                           server_message(response.body, config_.api_key) + ")");
        }
        if (attempt >= config_.max_tries)
            throw LlmError(where + ": " + problem + " (gave up after " + std::to_string(attempt) +
                           " tries; OPTIML_LLM_MAX_TRIES sets how many)");
        double wait = asked_wait.value_or(backoff);
        if (asked_wait && *asked_wait > config_.max_retry_wait_s)
            throw LlmError(where + ": " + problem + "; it asks to retry after " +
                           seconds_text(*asked_wait) + ", longer than the " +
                           seconds_text(config_.max_retry_wait_s) +
                           " OptiML waits (OPTIML_LLM_MAX_RETRY_WAIT)");
        wait = std::min(wait, config_.max_retry_wait_s);
        if (note_)
            note_(where + ": " + problem + "; retrying in " + seconds_text(wait) + " (try " +
                  std::to_string(attempt + 1) + " of " + std::to_string(config_.max_tries) + ")");
        sleep_(std::chrono::duration<double>(wait));
        backoff *= 2;
    }
}

}  // namespace optiml::llm
