#include "driver/source/kernel_text.h"

#include <algorithm>
#include <array>
#include <span>

#include "driver/source/cuda_tokens.h"
#include "driver/source/detail/parameter_writes.h"
#include "driver/source/rewrite_error.h"

namespace optiml::source {
namespace {

bool is_one_of(std::string_view word, std::span<const std::string_view> words) {
    return std::find(words.begin(), words.end(), word) != words.end();
}

constexpr std::array<std::string_view, 6> kParameterQualifiers = {
    "const", "volatile", "__restrict__", "__restrict", "restrict", "__grid_constant__"};
constexpr std::array<std::string_view, 13> kBuiltinTypes = {
    "void",   "bool",     "char",   "short",  "int",  "long",  "float",
    "double", "unsigned", "signed", "size_t", "auto", "__half"};
// Attributes between `__global__` and the name that take a parenthesized argument list.
constexpr std::array<std::string_view, 4> kLaunchAttributes = {
    "__launch_bounds__", "__maxnreg__", "__cluster_dims__", "__block_size__"};
constexpr std::array<std::string_view, 7> kDeclarationSpecifiers = {
    "static", "inline", "extern", "__forceinline__", "__noinline__", "__inline__", "constexpr"};

// The code tokens of a source and, for each, its index among all tokens (for what sits between
// code tokens: comments and directives such as #pragma unroll).
struct Tokens {
    std::vector<Token> all;
    std::vector<Token> code;
    std::vector<std::size_t> index_in_all;

    explicit Tokens(std::string_view source) : all(lex(source)) {
        for (std::size_t i = 0; i < all.size(); ++i) {
            if (!is_code(all[i])) continue;
            code.push_back(all[i]);
            index_in_all.push_back(i);
        }
    }
};

class Locator {
  public:
    Locator(std::string_view source, const Tokens& tokens)
        : source_(source), tokens_(tokens), code_(tokens.code) {}

    std::vector<KernelText> definitions_named(std::string_view name) const {
        std::vector<KernelText> found;
        for (std::size_t i = 0; i < code_.size(); ++i) {
            if (text(i) != "__global__") continue;
            if (auto kernel = definition_at(i); kernel && kernel->name == name) {
                found.push_back(std::move(*kernel));
            }
        }
        return found;
    }

  private:
    std::string_view text(std::size_t i) const {
        return i < code_.size() ? token_text(source_, code_[i]) : std::string_view();
    }
    std::size_t match(std::size_t open) const { return matching_bracket(code_, source_, open); }

    // The function whose `__global__` is code token g, when it is a definition.
    std::optional<KernelText> definition_at(std::size_t g) const {
        KernelText kernel;
        std::size_t i = g + 1;
        for (; i < code_.size() && text(i) != "("; ++i) {
            const std::string_view t = text(i);
            if (t == ";" || t == "{" || t == "}") return std::nullopt;
            if (is_one_of(t, kLaunchAttributes) && text(i + 1) == "(") {
                kernel.has_launch_bounds = kernel.has_launch_bounds || t == "__launch_bounds__";
                i = match(i + 1);
            }
        }
        if (i >= code_.size() || code_[i - 1].kind != TokenKind::Identifier) return std::nullopt;
        const std::size_t open = i;
        const std::size_t close = match(open);
        std::size_t body = close + 1;
        while (body < code_.size() && text(body) != "{" && text(body) != ";") ++body;
        if (body >= code_.size() || text(body) != "{") return std::nullopt;  // a declaration
        const std::size_t body_close = match(body);
        if (body_close >= code_.size()) return std::nullopt;

        const std::size_t first = declaration_start(g);
        kernel.name = std::string(text(open - 1));
        kernel.declaration_begin = code_[first].begin;
        kernel.name_begin = code_[open - 1].begin;
        kernel.parameters_begin = code_[open].begin;
        kernel.parameters_end = code_[close].begin;
        kernel.body_begin = code_[body].begin;
        kernel.body_end = code_[body_close].end;
        kernel.first_line = code_[first].line;
        kernel.last_line = code_[body_close].line;
        kernel.parameters = parameters(open, close);
        kernel.loops = loops(body, body_close);
        kernel.written_parameters = written_pointer_parameters(
            std::span(code_).subspan(body, body_close + 1 - body), source_, kernel.parameters);
        return kernel;
    }

    // Back from `__global__` over `static`, `extern "C"`, `template <...>`.
    std::size_t declaration_start(std::size_t g) const {
        std::size_t first = g;
        while (first > 0) {
            const std::size_t before = first - 1;
            const std::string_view t = text(before);
            if (is_one_of(t, kDeclarationSpecifiers) ||
                (code_[before].kind == TokenKind::String && before > 0 &&
                 text(before - 1) == "extern")) {
                first = before;
            } else if (t == ">" || t == ">>") {
                const std::size_t open = template_open(before);
                if (open == 0 || text(open - 1) != "template") break;
                first = open - 1;
            } else {
                break;
            }
        }
        return first;
    }

    // The '<' matching the '>' at close, scanning backwards; 0 when there is none.
    std::size_t template_open(std::size_t close) const {
        int depth = 0;
        for (std::size_t i = close + 1; i-- > 0;) {
            const std::string_view t = text(i);
            if (t == ">") ++depth;
            if (t == ">>") depth += 2;
            if (t == "<" && --depth == 0) return i;
            if (t == ";" || t == "{" || t == "}") return 0;
        }
        return 0;
    }

    std::vector<KernelParameter> parameters(std::size_t open, std::size_t close) const {
        std::vector<KernelParameter> result;
        std::size_t first = open + 1;
        int depth = 0;
        for (std::size_t i = open + 1; i <= close; ++i) {
            const std::string_view t = text(i);
            if (t == "(" || t == "[" || t == "{" || t == "<") ++depth;
            if (t == "]" || t == "}" || t == ">" || (t == ")" && i != close)) --depth;
            if (t == ">>") depth -= 2;
            if ((t == "," && depth == 0) || i == close) {
                if (i > first) result.push_back(parameter(first, i));
                first = i + 1;
            }
        }
        return result;
    }

    // The parameter made of code tokens [first, last).
    KernelParameter parameter(std::size_t first, std::size_t last) const {
        KernelParameter p;
        p.begin = code_[first].begin;
        p.end = code_[last - 1].end;
        p.declaration = std::string(source_.substr(p.begin, p.end - p.begin));
        // The declarator ends where an array suffix starts; '*'s count outside brackets only.
        std::size_t head_end = last;
        std::vector<std::size_t> stars;
        int depth = 0;
        for (std::size_t i = first; i < last && head_end == last; ++i) {
            const std::string_view t = text(i);
            if (t == "[" && depth == 0) head_end = i;
            if (t == "(" || t == "<") ++depth;
            if (t == ")" || t == ">") --depth;
            if (t == ">>") depth -= 2;
            if (t == "*" && depth == 0) stars.push_back(i);
        }
        const std::size_t name = head_end - 1;
        const bool has_type_before =
            std::any_of(code_.begin() + static_cast<std::ptrdiff_t>(first),
                        code_.begin() + static_cast<std::ptrdiff_t>(name), [&](const Token& t) {
                            return !is_one_of(token_text(source_, t), kParameterQualifiers);
                        });
        if (code_[name].kind == TokenKind::Identifier && has_type_before &&
            !is_one_of(text(name), kParameterQualifiers) && !is_one_of(text(name), kBuiltinTypes)) {
            p.name = std::string(text(name));
        }
        if (stars.empty() || head_end != last) return p;
        p.is_pointer = true;
        p.pointer_star = code_[stars.back()].begin;
        const std::size_t pointee_first = stars.size() > 1 ? stars[stars.size() - 2] + 1 : first;
        for (std::size_t i = pointee_first; i < stars.back(); ++i) {
            p.pointee_const = p.pointee_const || text(i) == "const";
        }
        for (std::size_t i = stars.back() + 1; i < head_end; ++i) {
            p.has_restrict = p.has_restrict || text(i) == "__restrict__" || text(i) == "__restrict";
        }
        return p;
    }

    std::vector<KernelLoop> loops(std::size_t body, std::size_t body_close) const {
        struct Extent {
            std::size_t begin, end;
        };
        std::vector<KernelLoop> result;
        std::vector<Extent> extents;
        for (std::size_t i = body + 1; i < body_close; ++i) {
            if (text(i) != "for" || text(i + 1) != "(") continue;
            KernelLoop loop;
            loop.line = code_[i].line;
            loop.keyword = code_[i].begin;
            loop.depth = static_cast<int>(
                std::count_if(extents.begin(), extents.end(),
                              [&](const Extent& e) { return e.begin < i && i < e.end; }));
            loop.has_unroll_pragma = unroll_pragma_before(i);
            const std::size_t end = statement_end(code_, source_, i);
            loop.last_line = code_[std::min(end, code_.size()) - 1].line;
            extents.push_back({i, end});
            result.push_back(loop);
        }
        return result;
    }

    // Whether the directive just before code token i (only blanks and comments between) is
    // `#pragma unroll`.
    bool unroll_pragma_before(std::size_t i) const {
        for (std::size_t a = tokens_.index_in_all[i]; a-- > 0;) {
            const Token& t = tokens_.all[a];
            if (t.kind == TokenKind::Whitespace || t.kind == TokenKind::Comment) continue;
            return t.kind == TokenKind::Preprocessor &&
                   unroll_pragma_factor(token_text(source_, t)).has_value();
        }
        return false;
    }

    std::string_view source_;
    const Tokens& tokens_;
    const std::vector<Token>& code_;
};

}  // namespace

std::size_t statement_end(std::span<const Token> code, std::string_view source, std::size_t i) {
    const auto text = [&](std::size_t j) {
        return j < code.size() ? token_text(source, code[j]) : std::string_view();
    };
    const auto match = [&](std::size_t open) { return matching_bracket(code, source, open); };
    if (i >= code.size()) return i;
    const std::string_view t = text(i);
    if (t == "{") return match(i) + 1;
    if ((t == "for" || t == "while" || t == "switch") && text(i + 1) == "(") {
        return statement_end(code, source, match(i + 1) + 1);
    }
    if (t == "if") {
        std::size_t condition = i + 1;
        if (text(condition) == "constexpr") ++condition;
        const std::size_t end = statement_end(code, source, match(condition) + 1);
        return text(end) == "else" ? statement_end(code, source, end + 1) : end;
    }
    if (t == "do") {
        const std::size_t end = statement_end(code, source, i + 1);  // at `while`
        return match(end + 1) + 2;                                   // past `(...)` and ';'
    }
    for (std::size_t j = i; j < code.size(); ++j) {
        const std::string_view u = text(j);
        if (u == ";") return j + 1;
        if (u == "(" || u == "[" || u == "{") j = match(j);
    }
    return code.size();
}

KernelText find_kernel(std::string_view source, std::string_view name) {
    const Tokens tokens(source);
    std::vector<KernelText> found = Locator(source, tokens).definitions_named(name);
    if (found.empty()) {
        throw RewriteError("kernel '" + std::string(name) +
                           "': no __global__ definition of that name in the source");
    }
    if (found.size() > 1) {
        throw RewriteError("kernel '" + std::string(name) + "' is defined " +
                           std::to_string(found.size()) + " times (lines " +
                           std::to_string(found[0].first_line) + " and " +
                           std::to_string(found[1].first_line) + ")");
    }
    return std::move(found.front());
}

std::optional<std::string> unroll_pragma_factor(std::string_view directive) {
    if (directive.empty() || directive.front() != '#') return std::nullopt;
    const std::string_view rest = directive.substr(1);
    const std::vector<Token> words = code_tokens(rest);
    if (words.size() < 2 || token_text(rest, words[0]) != "pragma" ||
        token_text(rest, words[1]) != "unroll") {
        return std::nullopt;
    }
    if (words.size() == 2) return std::string();
    return std::string(rest.substr(words[2].begin, words.back().end - words[2].begin));
}

}  // namespace optiml::source
