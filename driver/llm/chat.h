// The one seam between the LLM layer and whatever answers it: an OpenAI-compatible
// chat-completions endpoint over HTTP (http_chat.h), the exchange cache in front of it
// (cached_chat.h), or a replay of recorded exchanges. Proposers, the judge and synthesis
// see only this interface, so they run unchanged against OpenAI, vLLM, Ollama, llama.cpp
// server or a recording.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace optiml::llm {

struct Message {
    std::string role;  // "system", "user", "assistant"
    std::string content;
};

struct ChatRequest {
    std::string model;
    std::vector<Message> messages;
    double temperature = 0.0;
    int max_tokens = 0;  // 0: the endpoint's default
    // Names the prompt template and its version ("propose@1"); part of the exchange's key.
    std::string prompt_id;
};

struct Usage {
    long prompt_tokens = 0;
    long completion_tokens = 0;
};

struct ChatReply {
    std::string content;  // the model's message, never an error body
    std::string model;    // as the endpoint reports it
    Usage usage;
    bool replayed = false;  // true when it came from the exchange cache
};

// Every failure of an exchange: transport, HTTP status, a malformed body, the token budget.
// what() is safe to print: it never carries the API key.
class LlmError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class ChatEndpoint {
  public:
    virtual ~ChatEndpoint() = default;
    // One exchange; throws LlmError when no answer could be had.
    virtual ChatReply complete(const ChatRequest& request) = 0;
};

}  // namespace optiml::llm
