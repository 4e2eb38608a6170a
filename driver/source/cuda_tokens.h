// A lossless lexer for CUDA C++ source. Every byte belongs to exactly one token, so the rewrites
// can see structure (comments, literals, directives) without regular expressions, and splice the
// text back together unchanged outside their own edits.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace optiml::source {

enum class TokenKind {
    Identifier,  // also keywords
    Number,      // a preprocessing number: 1.0f, 0x1F, 1e-3, 1'000
    String,      // with its prefix (u8, L, R...), raw strings included
    Char,
    Punctuator,    // longest match (<<=, ->, ::, ...); any other single byte too
    Comment,       // // or /* */
    Preprocessor,  // one whole directive, backslash-continued lines included, without its newline
    Whitespace,    // blanks and newlines (and backslash-newline outside directives)
};

struct Token {
    TokenKind kind = TokenKind::Whitespace;
    std::size_t begin = 0;
    std::size_t end = 0;
    int line = 1;  // 1-based line of begin
};

std::vector<Token> lex(std::string_view source);

inline std::string_view token_text(std::string_view source, const Token& token) {
    return source.substr(token.begin, token.end - token.begin);
}

// What the compiler parses: no whitespace, comments or directives.
inline bool is_code(const Token& token) {
    return token.kind != TokenKind::Whitespace && token.kind != TokenKind::Comment &&
           token.kind != TokenKind::Preprocessor;
}

std::vector<Token> code_tokens(std::string_view source);

// A directive's words, lexed again after its '#': "#  define X 4" -> "define", "X", "4". Comments
// and line splices between them do not count ("# /* */ include" is an include).
struct DirectiveWords {
    std::string_view rest;     // the directive's text after its '#'
    std::vector<Token> words;  // its code tokens, offsets into `rest`
    // The i-th word's text; "" past the last.
    std::string_view word(std::size_t i) const {
        return i < words.size() ? token_text(rest, words[i]) : std::string_view();
    }
};
// `directive`: a Preprocessor token's text.
DirectiveWords directive_words(std::string_view directive);

// The index of the bracket closing tokens[open] ('(', '[', '{' or '<'), counting only brackets
// of that kind (and '>>' as two '>'); tokens.size() when it is never closed.
std::size_t matching_bracket(std::span<const Token> tokens, std::string_view source,
                             std::size_t open);

// Whether tokens[i] is a prefix operator (unary '*', '&', '-'...): what precedes it cannot end
// an operand.
bool is_prefix_operator(std::span<const Token> tokens, std::string_view source, std::size_t i);

}  // namespace optiml::source
