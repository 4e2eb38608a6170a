#include "driver/llm/detail/key_redaction.h"

#include <cctype>
#include <string_view>

namespace optiml::llm {
namespace {

// The characters API keys are made of: a short key next to one of them is part of another word.
bool token_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
}

bool whole_token(const std::string& text, std::size_t at, std::size_t length) {
    const bool starts = at == 0 || !token_char(text[at - 1]);
    const bool ends = at + length == text.size() || !token_char(text[at + length]);
    return starts && ends;
}

}  // namespace

std::string redact_key(std::string text, const std::string& key) {
    if (key.empty()) return text;
    static constexpr std::string_view kMark = "<redacted>";
    const bool anywhere = key.size() >= kShortestKeyRedactedAnywhere;
    for (std::size_t at = text.find(key); at != std::string::npos;) {
        if (anywhere || whole_token(text, at, key.size())) {
            text.replace(at, key.size(), kMark);
            at = text.find(key, at + kMark.size());
        } else {
            at = text.find(key, at + 1);
        }
    }
    return text;
}

}  // namespace optiml::llm
