#include "driver/llm/detail/http_chat.h"

#include <chrono>
#include <cmath>
#include <ctime>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>

#include "driver/base/http_client.h"
#include "driver/llm/detail/key_redaction.h"

namespace optiml::llm {
namespace {

using nlohmann::json;

// The client of one complete() call: its tries share the connection, and HttpChat stays usable
// from as many threads as before. The one place the key goes: the Authorization header the
// client sends to the configured endpoint.
base::HttpOptions http_options(const LlmConfig& config) {
    const CurlTimeouts timeouts = curl_timeouts(config);
    base::HttpOptions options;
    options.connect_timeout_ms = timeouts.connect_ms;
    options.timeout_ms = timeouts.total_ms;
    options.bearer_token = config.api_key;
    return options;
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

// Retry-After is seconds or an HTTP date; nullopt when it is neither.
std::optional<double> retry_after_seconds(const std::string& value) {
    std::size_t used = 0;
    try {
        const double seconds = std::stod(value, &used);
        if (used == value.size() && seconds >= 0) return seconds;
    } catch (const std::exception&) {
    }
    const std::optional<std::time_t> when = base::parse_http_date(value);
    if (!when) return std::nullopt;
    return std::max(0.0, std::difftime(*when, std::time(nullptr)));
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
    std::optional<base::HttpClient> client;
    try {
        client.emplace(http_options(config_));
    } catch (const base::HttpError&) {
        throw LlmError(where + ": libcurl could not start a transfer");
    }
    double backoff = config_.initial_backoff_s;
    for (int attempt = 1;; ++attempt) {
        // libcurl asks large POSTs to wait for "100 Continue"; servers that never send it would
        // cost a second per exchange.
        const base::HttpResponse response = client->request(
            "POST", url_, {"Content-Type: application/json", "Accept: application/json", "Expect:"},
            body);
        std::string problem;  // a retryable failure of this try
        std::optional<double> asked_wait;
        if (!response.transport_error.empty()) {
            problem = redact_key(response.transport_error, config_.api_key);
            if (!response.transient) throw LlmError(where + ": " + problem);
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
            if (const auto retry_after = response.header("Retry-After"))
                asked_wait = retry_after_seconds(*retry_after);
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
