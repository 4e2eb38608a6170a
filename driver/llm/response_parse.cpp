#include "driver/llm/response_parse.h"

#include <cctype>
#include <climits>
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

namespace optiml::llm {
namespace {

using nlohmann::json;

struct Fence {
    std::string tag;  // the info string after ```, lower-case
    std::string body;
};

std::string lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::string trimmed(std::string_view text) {
    const auto begin = text.find_first_not_of(" \t\r\n");
    if (begin == std::string_view::npos) return "";
    const auto end = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(begin, end - begin + 1));
}

// Every fenced block: a line starting with ``` opens one, the next such line closes it.
std::vector<Fence> fences(std::string_view content) {
    std::vector<Fence> out;
    std::optional<Fence> open;
    std::size_t begin = 0;
    while (begin < content.size()) {
        std::size_t end = content.find('\n', begin);
        if (end == std::string_view::npos) end = content.size();
        const std::string_view line = content.substr(begin, end - begin);
        const std::string stripped = trimmed(line);
        if (stripped.rfind("```", 0) == 0) {
            if (open) {
                out.push_back(std::move(*open));
                open.reset();
            } else {
                open = Fence{lower(trimmed(std::string_view(stripped).substr(3))), ""};
            }
        } else if (open) {
            open->body.append(line);
            open->body += '\n';
        }
        begin = end + 1;
    }
    return out;
}

bool is_code_tag(const std::string& tag) {
    return tag == "cuda" || tag == "cu" || tag == "cpp" || tag == "c++" || tag == "c";
}

// "  42 | code" on every non-blank line: the listing's numbers, copied. They are removed.
std::string without_line_numbers(const std::string& code) {
    std::vector<std::string> lines;
    std::size_t begin = 0;
    bool all_numbered = true, any = false;
    while (begin < code.size()) {
        std::size_t end = code.find('\n', begin);
        if (end == std::string::npos) end = code.size();
        lines.push_back(code.substr(begin, end - begin));
        begin = end + 1;
    }
    for (const std::string& line : lines) {
        if (trimmed(line).empty()) continue;
        any = true;
        std::size_t i = line.find_first_not_of(' ');
        const std::size_t digits = i;
        while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
        if (i == digits || line.compare(i, 2, " |") != 0) all_numbered = false;
    }
    if (!any || !all_numbered) return code;
    std::string out;
    for (const std::string& line : lines) {
        const std::size_t bar = line.find(" |");
        if (bar == std::string::npos) {
            out += line + "\n";
            continue;
        }
        std::size_t from = bar + 2;
        if (from < line.size() && line[from] == ' ') ++from;
        out += line.substr(from) + "\n";
    }
    return out;
}

[[noreturn]] void reject(const std::string& reason) {
    throw AnswerRejected("parse", reason);
}

int line_number(const json& value, const std::string& at) {
    // Unsigned and 64-bit numbers too: an int's range is checked, not wrapped into it.
    if (!value.is_number_integer() ||
        (value.is_number_unsigned()
             ? value.get<std::uint64_t>() > std::uint64_t{INT_MAX}
             : value.get<std::int64_t>() > INT_MAX || value.get<std::int64_t>() < INT_MIN))
        reject(at + ": expected a line number, got " + value.dump());
    return value.get<int>();
}

Change parse_change(const json& item, const std::string& at) {
    if (!item.is_object())
        reject(at +
               ": expected an object {\"lines\": [a, b], \"reason\": ..., \"evidence\": [...]}");
    Change change;
    const auto lines = item.find("lines");
    if (lines == item.end()) reject(at + ".lines: missing; expected [first, last]");
    if (lines->is_number_integer()) {
        change.first_line = change.last_line = line_number(*lines, at + ".lines");
    } else if (lines->is_array() && (lines->size() == 1 || lines->size() == 2)) {
        change.first_line = line_number(lines->front(), at + ".lines[0]");
        change.last_line =
            line_number(lines->back(), at + ".lines[" + std::to_string(lines->size() - 1) + "]");
    } else {
        reject(at + ".lines: expected [first, last], got " + lines->dump());
    }
    if (change.last_line < change.first_line)
        reject(at + ".lines: the last line comes before the first");
    if (const auto reason = item.find("reason"); reason != item.end() && reason->is_string())
        change.reason = reason->get<std::string>();
    const auto evidence = item.find("evidence");
    if (evidence != item.end() && !evidence->is_array())
        reject(at + ".evidence: expected a list of evidence ids");
    if (evidence != item.end())
        for (std::size_t i = 0; i < evidence->size(); ++i) {
            if (!(*evidence)[i].is_string())
                reject(at + ".evidence[" + std::to_string(i) + "]: expected an id string");
            change.evidence.push_back((*evidence)[i].get<std::string>());
        }
    return change;
}

void parse_record(const json& record, Answer& answer) {
    const json* changes = &record;
    if (record.is_object()) {
        const auto found = record.find("changes");
        if (found == record.end()) reject("the JSON block has no \"changes\" list");
        changes = &*found;
        if (const auto p = record.find("parameters"); p != record.end() && !p->is_null()) {
            if (!p->is_object()) reject("parameters: expected an object of name: value");
            for (const auto& [name, value] : p->items()) {
                if (!value.is_number_integer() ||
                    (value.is_number_unsigned() &&
                     value.get<std::uint64_t>() > std::uint64_t{INT64_MAX}))
                    reject("parameters." + name + ": expected an integer, got " + value.dump());
                answer.parameters[name] = value.get<std::int64_t>();
            }
        }
        if (const auto s = record.find("suggestions"); s != record.end() && s->is_array())
            for (const auto& item : *s)
                answer.suggestions.push_back(item.is_string() ? item.get<std::string>()
                                                              : item.dump());
    }
    if (!changes->is_array()) reject("changes: expected a list of changes");
    for (std::size_t i = 0; i < changes->size(); ++i)
        answer.changes.push_back(parse_change((*changes)[i], "changes[" + std::to_string(i) + "]"));
}

}  // namespace

Answer parse_answer(std::string_view content) {
    Answer answer;
    std::vector<const Fence*> code, records;
    const std::vector<Fence> blocks = fences(content);
    for (const Fence& fence : blocks) {
        if (is_code_tag(fence.tag))
            code.push_back(&fence);
        else if (fence.tag == "json" || fence.tag.empty())
            records.push_back(&fence);
    }
    if (code.empty()) reject("the answer has no fenced ```cuda block with the kernel");
    if (code.size() > 1)
        reject("the answer has " + std::to_string(code.size()) +
               " fenced code blocks; expected the whole kernel in one ```cuda block");
    answer.code = without_line_numbers(code.front()->body);
    std::optional<json> record;
    for (const Fence* fence : records) {
        json parsed = json::parse(fence->body, nullptr, false);
        if (!parsed.is_discarded()) {
            record = std::move(parsed);
            break;
        }
    }
    if (!record) reject("the answer has no fenced ```json block of changes that parses as JSON");
    parse_record(*record, answer);
    if (answer.changes.empty()) reject("the answer lists no changes");
    return answer;
}

}  // namespace optiml::llm
