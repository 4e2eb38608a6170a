// Test helper: runs one exchange that must fail and returns the LlmError's message (the test
// fails when the exchange succeeds).
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "driver/llm/chat.h"

namespace optiml::llm::testing {

inline std::string llm_error_of(ChatEndpoint& chat, const ChatRequest& request) {
    try {
        chat.complete(request);
    } catch (const LlmError& e) {
        return e.what();
    }
    ADD_FAILURE() << "the exchange succeeded";
    return {};
}

}  // namespace optiml::llm::testing
