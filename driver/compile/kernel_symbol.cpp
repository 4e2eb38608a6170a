#include "driver/compile/kernel_symbol.h"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>

namespace optiml::compile {
namespace {

std::string without_spaces(const std::string& text) {
    std::string out;
    for (const char c : text)
        if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    return out;
}

std::string demangle(const std::string& symbol) {
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> text(
        abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), &std::free);
    return status == 0 && text ? std::string(text.get()) : symbol;
}

}  // namespace

std::string kernel_name_of_symbol(const std::string& symbol) {
    const std::string full = demangle(symbol);
    // "void ns::k<32, (char)1>(float*, int)": the name ends at the first '(' outside <>, and a
    // template's return type ends at the last space outside <> before it.
    int depth = 0;
    std::size_t name_start = 0;
    std::size_t name_end = full.size();
    for (std::size_t i = 0; i < full.size(); ++i) {
        const char c = full[i];
        if (c == '<') ++depth;
        if (c == '>') --depth;
        if (depth != 0) continue;
        if (c == '(') {
            name_end = i;
            break;
        }
        if (c == ' ') name_start = i + 1;
    }
    return without_spaces(full.substr(name_start, name_end - name_start));
}

std::optional<std::string> find_kernel_symbol(const std::vector<std::string>& symbols,
                                              const std::string& name_expression) {
    std::string wanted = without_spaces(name_expression);
    if (wanted.starts_with("::")) wanted.erase(0, 2);
    std::optional<std::string> found;
    for (const std::string& symbol : symbols) {
        if (kernel_name_of_symbol(symbol) != wanted) continue;
        if (found && *found != symbol) return std::nullopt;  // overloaded: ambiguous
        found = symbol;
    }
    return found;
}

std::string expand_defines(const std::string& name_expression,
                           const std::map<std::string, std::int64_t>& defines) {
    const auto identifier_char = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    std::string out;
    for (std::size_t i = 0; i < name_expression.size();) {
        if (!identifier_char(name_expression[i])) {
            out += name_expression[i++];
            continue;
        }
        std::size_t end = i;
        while (end < name_expression.size() && identifier_char(name_expression[end])) ++end;
        const std::string word = name_expression.substr(i, end - i);
        const auto define = defines.find(word);
        out += define == defines.end() ? word : std::to_string(define->second);
        i = end;
    }
    return out;
}

}  // namespace optiml::compile
