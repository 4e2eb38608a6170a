// Macro defaults and template parameters, read from tokens: a directive is one Preprocessor
// token, its words are lexed again; a template head is the code tokens between `template <`
// and its `>`.
#include "driver/source/tunable_knobs.h"

#include <cctype>
#include <charconv>

#include "driver/source/cuda_tokens.h"

namespace optiml::source {
namespace {

std::string trimmed(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return std::string(text);
}

}  // namespace

std::optional<long long> integer_literal(std::string_view text) {
    std::string value = trimmed(text);
    while (value.size() >= 2 && value.front() == '(' && value.back() == ')')
        value = trimmed(std::string_view(value).substr(1, value.size() - 2));
    while (!value.empty() && (value.back() == 'u' || value.back() == 'U' || value.back() == 'l' ||
                              value.back() == 'L'))
        value.pop_back();
    const bool negative = !value.empty() && value.front() == '-';
    std::string_view digits = std::string_view(value).substr(negative ? 1 : 0);
    int base = 10;
    if (digits.starts_with("0x") || digits.starts_with("0X")) {
        base = 16;
        digits.remove_prefix(2);
    }
    long long result = 0;
    const auto [end, error] =
        std::from_chars(digits.data(), digits.data() + digits.size(), result, base);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size())
        return std::nullopt;
    return negative ? -result : result;
}

std::vector<MacroDefault> macro_defaults(std::string_view source) {
    const std::vector<Token> tokens = lex(source);
    std::vector<MacroDefault> found;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (tokens[i].kind != TokenKind::Preprocessor) continue;
        const DirectiveWords guard = directive_words(token_text(source, tokens[i]));
        if (guard.word(0) != "ifndef" || guard.words.size() != 2) continue;
        std::size_t next = i + 1;
        while (next < tokens.size() && (tokens[next].kind == TokenKind::Whitespace ||
                                        tokens[next].kind == TokenKind::Comment))
            ++next;
        if (next == tokens.size() || tokens[next].kind != TokenKind::Preprocessor) continue;
        const DirectiveWords define = directive_words(token_text(source, tokens[next]));
        if (define.word(0) != "define" || define.word(1) != guard.word(1)) continue;
        const std::size_t name_end = define.words[1].end;
        // `#define NAME(x) ...` is a function-like macro, not a value.
        if (name_end < define.rest.size() && define.rest[name_end] == '(') continue;
        MacroDefault macro;
        macro.name = std::string(guard.word(1));
        macro.value = trimmed(define.rest.substr(name_end));
        macro.integer = integer_literal(macro.value);
        macro.line = tokens[next].line;
        found.push_back(std::move(macro));
    }
    return found;
}

std::vector<TemplateParameter> template_parameters(std::string_view source,
                                                   const KernelText& kernel) {
    const std::string_view head =
        source.substr(kernel.declaration_begin, kernel.name_begin - kernel.declaration_begin);
    const std::vector<Token> code = code_tokens(head);
    if (code.size() < 2 || token_text(head, code[0]) != "template" ||
        token_text(head, code[1]) != "<")
        return {};
    const std::size_t close = matching_bracket(code, head, 1);
    std::vector<TemplateParameter> result;
    std::size_t first = 2;
    int depth = 0;
    for (std::size_t i = 2; i <= close && i < code.size(); ++i) {
        const std::string_view t = token_text(head, code[i]);
        if (t == "(" || t == "<" || t == "[") ++depth;
        if (t == ")" || t == "]" || (t == ">" && i != close)) --depth;
        if ((t != "," || depth != 0) && i != close) continue;
        if (i > first) {
            std::size_t equals = i;
            for (std::size_t j = first; j < i; ++j)
                if (token_text(head, code[j]) == "=" && equals == i) equals = j;
            TemplateParameter p;
            std::size_t name_end = equals;
            if (name_end > first + 1 && code[name_end - 1].kind == TokenKind::Identifier) {
                p.name = std::string(token_text(head, code[name_end - 1]));
                --name_end;
            }
            p.kind =
                trimmed(head.substr(code[first].begin, code[name_end - 1].end - code[first].begin));
            if (equals < i) {
                p.default_value = trimmed(
                    head.substr(code[equals + 1].begin, code[i - 1].end - code[equals + 1].begin));
                p.integer_default = integer_literal(p.default_value);
            }
            result.push_back(std::move(p));
        }
        first = i + 1;
    }
    return result;
}

}  // namespace optiml::source
