#include "driver/source/cuda_tokens.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace optiml::source {
namespace {

bool is_identifier_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}
bool is_identifier_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}
bool is_digit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}
bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r';
}

// Longest first, so that the first match is the longest one.
constexpr std::array<std::string_view, 27> kPunctuators = {
    "<<=", ">>=", "->*", "...", "<=>", "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
    "!=",  "&&",  "||",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", ".*", "##"};

// Scans one source; each scan_* starts at pos and returns the end of its token.
class Lexer {
  public:
    explicit Lexer(std::string_view source) : source_(source) {}

    std::vector<Token> run() {
        std::vector<Token> tokens;
        std::size_t pos = 0;
        int line = 1;
        bool at_line_start = true;  // only blanks since the last newline
        while (pos < source_.size()) {
            const auto [kind, end] = scan(pos, at_line_start);
            tokens.push_back(Token{kind, pos, end, line});
            for (std::size_t i = pos; i < end; ++i) {
                if (source_[i] == '\n') {
                    ++line;
                    at_line_start = true;
                }
            }
            // A directive's '#' must be the first non-blank of its line; a comment before it on
            // the same line counts as text here (stricter than the standard, rare in kernels).
            if (kind != TokenKind::Whitespace) at_line_start = false;
            pos = end;
        }
        return tokens;
    }

  private:
    struct Scanned {
        TokenKind kind;
        std::size_t end;
    };

    char at(std::size_t i) const { return i < source_.size() ? source_[i] : '\0'; }
    bool starts_with(std::size_t i, std::string_view s) const {
        return source_.substr(i, s.size()) == s;
    }
    // A backslash that ends its line (before "\n" or "\r\n"): the length of that sequence, or 0.
    std::size_t line_splice(std::size_t i) const {
        if (at(i) != '\\') return 0;
        if (at(i + 1) == '\n') return 2;
        if (at(i + 1) == '\r' && at(i + 2) == '\n') return 3;
        return 0;
    }

    Scanned scan(std::size_t pos, bool at_line_start) const {
        const char c = source_[pos];
        if (is_blank(c) || c == '\n' || line_splice(pos) != 0) {
            std::size_t end = pos;
            while (end < source_.size()) {
                if (is_blank(source_[end]) || source_[end] == '\n') {
                    ++end;
                } else if (const std::size_t n = line_splice(end); n != 0) {
                    end += n;
                } else {
                    break;
                }
            }
            return {TokenKind::Whitespace, end};
        }
        if (c == '#' && at_line_start) return {TokenKind::Preprocessor, scan_directive(pos)};
        if (starts_with(pos, "//")) return {TokenKind::Comment, scan_line_comment(pos)};
        if (starts_with(pos, "/*")) return {TokenKind::Comment, scan_block_comment(pos)};
        if (is_identifier_start(c)) return scan_identifier_or_prefixed_literal(pos);
        if (is_digit(c) || (c == '.' && is_digit(at(pos + 1)))) {
            return {TokenKind::Number, scan_number(pos)};
        }
        if (c == '"') return {TokenKind::String, scan_quoted(pos, '"')};
        if (c == '\'') return {TokenKind::Char, scan_quoted(pos, '\'')};
        for (std::string_view p : kPunctuators) {
            if (starts_with(pos, p)) return {TokenKind::Punctuator, pos + p.size()};
        }
        return {TokenKind::Punctuator, pos + 1};
    }

    // Up to (not including) the newline that is not spliced; comments and literals inside are
    // skipped whole, so that a "/*" in a string or a newline in a block comment is handled.
    std::size_t scan_directive(std::size_t pos) const {
        std::size_t i = pos + 1;
        while (i < source_.size()) {
            if (const std::size_t n = line_splice(i); n != 0) {
                i += n;
            } else if (source_[i] == '\n') {
                break;
            } else if (starts_with(i, "\r\n")) {
                break;
            } else if (starts_with(i, "/*")) {
                i = scan_block_comment(i);
            } else if (starts_with(i, "//")) {
                return scan_line_comment(i);
            } else if (source_[i] == '"' || source_[i] == '\'') {
                i = scan_quoted(i, source_[i]);
            } else {
                ++i;
            }
        }
        return i;
    }

    std::size_t scan_line_comment(std::size_t pos) const {
        std::size_t i = pos + 2;
        while (i < source_.size()) {
            if (const std::size_t n = line_splice(i); n != 0) {
                i += n;
            } else if (source_[i] == '\n' || starts_with(i, "\r\n")) {
                break;
            } else {
                ++i;
            }
        }
        return i;
    }

    std::size_t scan_block_comment(std::size_t pos) const {
        const std::size_t close = source_.find("*/", pos + 2);
        return close == std::string_view::npos ? source_.size() : close + 2;
    }

    // A literal that is not closed on its line ends at the newline, so one stray quote cannot
    // swallow the rest of the file.
    std::size_t scan_quoted(std::size_t pos, char quote) const {
        std::size_t i = pos + 1;
        while (i < source_.size() && source_[i] != quote && source_[i] != '\n') {
            if (source_[i] == '\\' && i + 1 < source_.size()) {
                i += line_splice(i) != 0 ? line_splice(i) : 2;
            } else {
                ++i;
            }
        }
        return i < source_.size() && source_[i] == quote ? i + 1 : i;
    }

    // R"delim( ... )delim": nothing inside is an escape.
    std::size_t scan_raw_string(std::size_t quote) const {
        const std::size_t open = source_.find('(', quote + 1);
        if (open == std::string_view::npos) return scan_quoted(quote, '"');
        const std::string delimiter =
            ")" + std::string(source_.substr(quote + 1, open - quote - 1)) + "\"";
        const std::size_t close = source_.find(delimiter, open + 1);
        return close == std::string_view::npos ? source_.size() : close + delimiter.size();
    }

    Scanned scan_identifier_or_prefixed_literal(std::size_t pos) const {
        std::size_t end = pos;
        while (end < source_.size() && is_identifier_char(source_[end])) ++end;
        const std::string_view word = source_.substr(pos, end - pos);
        const bool string_prefix = word == "L" || word == "u" || word == "U" || word == "u8";
        const bool raw_prefix =
            word == "R" || word == "LR" || word == "uR" || word == "UR" || word == "u8R";
        if (at(end) == '"' && raw_prefix) return {TokenKind::String, scan_raw_string(end)};
        if (at(end) == '"' && string_prefix) return {TokenKind::String, scan_quoted(end, '"')};
        if (at(end) == '\'' && string_prefix) return {TokenKind::Char, scan_quoted(end, '\'')};
        return {TokenKind::Identifier, end};
    }

    // A preprocessing number: digits, letters, '.', digit separators and signed exponents.
    std::size_t scan_number(std::size_t pos) const {
        std::size_t i = pos + 1;
        while (i < source_.size()) {
            const char c = source_[i];
            const char prev = source_[i - 1];
            if ((c == '+' || c == '-') &&
                (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P')) {
                ++i;
            } else if (c == '\'' && is_identifier_char(at(i + 1))) {
                i += 2;
            } else if (is_identifier_char(c) || c == '.') {
                ++i;
            } else {
                break;
            }
        }
        return i;
    }

    std::string_view source_;
};

}  // namespace

std::vector<Token> lex(std::string_view source) {
    return Lexer(source).run();
}

std::vector<Token> code_tokens(std::string_view source) {
    std::vector<Token> code;
    for (const Token& token : lex(source)) {
        if (is_code(token)) code.push_back(token);
    }
    return code;
}

DirectiveWords directive_words(std::string_view directive) {
    DirectiveWords d;
    d.rest = directive.substr(std::min(directive.find('#') + 1, directive.size()));
    d.words = code_tokens(d.rest);
    return d;
}

std::size_t matching_bracket(std::span<const Token> tokens, std::string_view source,
                             std::size_t open) {
    const std::string_view opener = token_text(source, tokens[open]);
    const std::string_view closer = opener == "("   ? ")"
                                    : opener == "[" ? "]"
                                    : opener == "{" ? "}"
                                                    : ">";
    int depth = 0;
    for (std::size_t i = open; i < tokens.size(); ++i) {
        if (tokens[i].kind != TokenKind::Punctuator) continue;
        const std::string_view text = token_text(source, tokens[i]);
        if (text == opener) {
            ++depth;
        } else if (text == closer || (closer == ">" && text == ">>")) {
            depth -= text == ">>" ? 2 : 1;
            if (depth <= 0) return i;
        }
    }
    return tokens.size();
}

bool is_prefix_operator(std::span<const Token> tokens, std::string_view source, std::size_t i) {
    if (tokens[i].kind != TokenKind::Punctuator) return false;
    if (i == 0) return true;
    const std::string_view before = token_text(source, tokens[i - 1]);
    return tokens[i - 1].kind == TokenKind::Punctuator && before != ")" && before != "]";
}

}  // namespace optiml::source
