#include "driver/llm/detail/synth_answer.h"

#include <algorithm>

namespace optiml::llm {

std::optional<std::string> fenced_block(const std::string& text,
                                        const std::vector<std::string>& languages) {
    std::size_t at = 0;
    while ((at = text.find("```", at)) != std::string::npos) {
        const std::size_t line_end = text.find('\n', at);
        if (line_end == std::string::npos) return std::nullopt;
        std::string info = text.substr(at + 3, line_end - at - 3);
        info.erase(
            std::remove_if(info.begin(), info.end(), [](char c) { return c == ' ' || c == '\r'; }),
            info.end());
        std::transform(info.begin(), info.end(), info.begin(), [](char c) {
            return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        });
        const std::size_t close = text.find("\n```", line_end);
        if (close == std::string::npos) return std::nullopt;  // unterminated: not trusted
        if (std::find(languages.begin(), languages.end(), info) != languages.end())
            return text.substr(line_end + 1, close + 1 - (line_end + 1));
        at = close + 4;
    }
    return std::nullopt;
}

std::optional<std::string> kernel_block(const std::string& text) {
    if (auto block = fenced_block(text, {"cuda", "cu", "cpp", "c++"})) return block;
    return fenced_block(text, {""});
}

}  // namespace optiml::llm
