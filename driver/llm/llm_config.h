// The chat endpoint the environment configures: $OPTIML_LLM_BASE_URL (an OpenAI-compatible
// ".../v1"), $OPTIML_LLM_MODEL, $OPTIML_LLM_API_KEY. Null when no base URL is set: the search
// then runs without LLM proposals or the LLM judge, exactly as before.
#pragma once

#include <memory>

#include "driver/llm/chat.h"

namespace optiml::llm {

std::unique_ptr<ChatEndpoint> make_chat_endpoint_from_environment();

}  // namespace optiml::llm
