// A ChatEndpoint over HTTP: POST {base_url}/chat/completions, the body every OpenAI-compatible
// server takes (OpenAI, vLLM, Ollama, llama.cpp server, LM Studio), through base::HttpClient
// (driver/base/http_client.h).
// Retries with exponential backoff on 429, 5xx and connection errors (honouring Retry-After),
// at most config.max_tries tries; stops at once on 401/403, on an exhausted quota and on other
// 4xx. Only a well-formed chat.completion body becomes a reply: an error body, a truncated or
// malformed one is an LlmError. Error messages never carry the API key (docs/llm.md).
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "driver/llm/chat.h"
#include "driver/llm/llm_config.h"

namespace optiml::llm {

// How HttpChat waits between tries. A seam for tests: they record the waits (backoff,
// Retry-After) and assert them as values instead of timing them on a clock.
using RetrySleep = std::function<void(std::chrono::duration<double>)>;

class HttpChat final : public ChatEndpoint {
  public:
    // `note` receives one line per retry ("HTTP 503, retrying in 2 s (try 2 of 4)"); may be
    // empty. `sleep` waits between tries; empty: std::this_thread::sleep_for. Throws LlmError
    // when the configuration is unusable (validate()).
    explicit HttpChat(LlmConfig config, std::function<void(const std::string&)> note = {},
                      RetrySleep sleep = {});

    ChatReply complete(const ChatRequest& request) override;

  private:
    LlmConfig config_;
    std::string url_;
    std::function<void(const std::string&)> note_;
    RetrySleep sleep_;
};

// The limits of one try as libcurl gets them (base::HttpOptions' connect_timeout_ms and
// timeout_ms): exposed so that a test checks the configured timeout reaches libcurl without
// timing a stall.
struct CurlTimeouts {
    long connect_ms = 0;
    long total_ms = 0;
};
CurlTimeouts curl_timeouts(const LlmConfig& config);

// The request body as JSON text (the request's model, else `default_model`).
std::string chat_request_body(const ChatRequest& request, const std::string& default_model);

// The reply in a 200 body; throws LlmError naming what is missing when it is not a
// chat.completion with a message (an error object, no choices, content not a string...). An error
// object's message is quoted without `api_key` (driver/llm/detail/key_redaction.h).
ChatReply parse_chat_reply(const std::string& body, const std::string& api_key = "");

}  // namespace optiml::llm
