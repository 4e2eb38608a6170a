#include "driver/llm/prompt.h"

#include <cstdio>
#include <set>
#include <vector>

#include "cache/key.h"
#include "driver/llm/chat.h"
#include "driver/llm/prompt_texts.h"

namespace optiml::llm {

const PromptTemplate& prompt_template(std::string_view name) {
    static const std::vector<PromptTemplate> templates = {
        {"propose", 1, detail::kProposeV1},
        {"repair", 1, detail::kRepairV1},
        {"judge", 1, detail::kJudgeV1},
        {"verdict", 1, detail::kVerdictV1},
    };
    for (const PromptTemplate& t : templates)
        if (t.name == name) return t;
    throw LlmError("no prompt template named '" + std::string(name) + "'");
}

std::vector<std::string> tuning_prompt_fingerprints() {
    std::vector<std::string> out;
    for (const char* name : {"propose", "repair", "judge", "verdict"}) {
        const PromptTemplate& t = prompt_template(name);
        out.push_back(t.id() + " " + cache::sha256_hex(t.text));
    }
    return out;
}

std::string render(const PromptTemplate& prompt, const std::map<std::string, std::string>& values) {
    std::string out;
    std::set<std::string> used;
    std::size_t at = 0;
    for (;;) {
        const std::size_t open = prompt.text.find("{{", at);
        if (open == std::string::npos) break;
        const std::size_t close = prompt.text.find("}}", open + 2);
        if (close == std::string::npos) break;
        const std::string key = prompt.text.substr(open + 2, close - open - 2);
        const auto found = values.find(key);
        if (found == values.end())
            throw LlmError("prompt " + prompt.id() + ": no value for {{" + key + "}}");
        out.append(prompt.text, at, open - at);
        out += found->second;
        used.insert(key);
        at = close + 2;
    }
    out.append(prompt.text, at);
    for (const auto& [key, value] : values)
        if (!used.contains(key))
            throw LlmError("prompt " + prompt.id() + ": has no placeholder {{" + key + "}}");
    return out;
}

std::string numbered_lines(std::string_view text, int first, int last) {
    std::string out;
    int line = 1;
    std::size_t begin = 0;
    while (begin <= text.size() && line <= last) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        if (line >= first) {
            char number[16];
            std::snprintf(number, sizeof(number), "%4d | ", line);
            out += number;
            out.append(text.substr(begin, end - begin));
            out += '\n';
        }
        if (end == text.size()) break;
        begin = end + 1;
        ++line;
    }
    return out;
}

}  // namespace optiml::llm
