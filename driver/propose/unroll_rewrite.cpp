// unroll_loop: a `#pragma unroll` line before one loop, or a new factor for the one there.
#include <algorithm>
#include <string>

#include "driver/propose/detail/loop_analysis.h"
#include "driver/propose/detail/rewrites.h"
#include "driver/propose/detail/text_edits.h"
#include "driver/source/cuda_tokens.h"
#include "driver/source/kernel_text.h"
#include "driver/source/rewrite_error.h"

namespace optiml::propose {
namespace {

bool is_blank(char c) {
    return c == ' ' || c == '\t';
}

// The new pragma line before `keyword`, in the file's line ending, indented like its line; a
// `for` that does not start its line (`if (c) for ...`) is moved to a line of its own.
TextEdit pragma_line_before(std::string_view source, std::size_t keyword,
                            const std::string& pragma) {
    const std::size_t newline =
        keyword == 0 ? std::string_view::npos : source.rfind('\n', keyword - 1);
    const std::size_t first = newline == std::string_view::npos ? 0 : newline + 1;
    const std::size_t line_end = source.find('\n', keyword);
    const std::string eol =
        line_end != std::string_view::npos && line_end > 0 && source[line_end - 1] == '\r' ? "\r\n"
                                                                                           : "\n";
    std::size_t indent_end = first;
    while (indent_end < keyword && is_blank(source[indent_end])) ++indent_end;
    const std::string indent(source.substr(first, indent_end - first));
    if (indent_end == keyword) return {first, 0, indent + pragma + eol};
    std::size_t blanks = keyword;
    while (blanks > indent_end && is_blank(source[blanks - 1])) --blanks;
    return {blanks, keyword - blanks, eol + indent + pragma + eol + indent};
}

}  // namespace

std::optional<std::string> unroll_loop(std::string_view source, std::string_view kernel,
                                       int loop_line, int factor) {
    if (factor < 0) {
        throw source::RewriteError("unroll_loop on '" + std::string(kernel) +
                                   "': the unroll factor must not be negative");
    }
    const source::KernelText text = source::find_kernel(source, kernel);
    const auto loop =
        std::find_if(text.loops.begin(), text.loops.end(),
                     [&](const source::KernelLoop& l) { return l.line == loop_line; });
    if (loop == text.loops.end()) return std::nullopt;

    const std::string wanted_factor = factor == 0 ? "" : std::to_string(factor);
    const std::string pragma = "#pragma unroll" + (factor == 0 ? "" : " " + wanted_factor);
    if (loop->has_unroll_pragma) {
        const std::vector<source::Token> tokens = source::lex(source);
        const source::Token* directive = directive_before(tokens, loop->keyword);
        if (source::unroll_pragma_factor(source::token_text(source, *directive)) == wanted_factor) {
            return std::nullopt;
        }
        return apply_edits(source, {{directive->begin, directive->end - directive->begin, pragma}});
    }
    return apply_edits(source, {pragma_line_before(source, loop->keyword, pragma)});
}

}  // namespace optiml::propose
