// One recorded exchange: its content address and the JSON mapping of its request and reply, as
// the exchange cache stores them (docs/llm.md, "What is cached").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "driver/llm/chat.h"

namespace optiml::llm {

// Lowercase hex SHA-256 over the tagged fields kind, model, each message's role and content,
// temperature (shortest exact decimal), max_tokens and prompt_id. The endpoint's URL and the key
// are not inputs: the same question to another server of the same model is the same exchange.
std::string exchange_key(const ChatRequest& request);

nlohmann::json request_to_json(const ChatRequest& request);
nlohmann::json reply_to_json(const ChatReply& reply);
// Throws LlmError naming `where` and the missing or mistyped field.
ChatRequest request_from_json(const nlohmann::json& json, const std::string& where);
ChatReply reply_from_json(const nlohmann::json& json, const std::string& where);

}  // namespace optiml::llm
