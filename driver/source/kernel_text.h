// Locates one __global__ kernel's definition in a source text and describes what the rewrites
// need of it: the offsets of its name, parameter list and body, its parameters (pointer, const,
// restrict), its loops, and which pointer parameters the body writes through. All offsets are
// into the text given, so a rewrite edits exactly the kernel's own span.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "driver/source/cuda_tokens.h"

namespace optiml::source {

struct KernelParameter {
    std::string name;         // "" for an unnamed parameter
    std::string declaration;  // its text as written
    bool is_pointer = false;  // a '*' declarator (an array parameter is not counted)
    bool pointee_const = false;
    bool has_restrict = false;       // __restrict__ or __restrict on the pointer itself
    std::size_t pointer_star = 0;    // offset of the declarator's last '*' (when is_pointer)
    std::size_t begin = 0, end = 0;  // offsets of the declaration
};

struct KernelLoop {
    int line = 0;             // line of the `for` keyword
    int last_line = 0;        // line of the loop's last token (its body's `}` or `;`)
    std::size_t keyword = 0;  // offset of `for`
    int depth = 0;            // 0 = outermost loop in the body
    bool has_unroll_pragma = false;
};

struct KernelText {
    std::string name;
    // Start of `template`, `extern "C"`, `static` or `__global__`, whichever comes first.
    std::size_t declaration_begin = 0;
    std::size_t name_begin = 0;
    std::size_t parameters_begin = 0;  // '('
    std::size_t parameters_end = 0;    // ')'
    std::size_t body_begin = 0;        // '{'
    std::size_t body_end = 0;          // one past '}'
    int first_line = 0, last_line = 0;
    bool has_launch_bounds = false;
    std::vector<KernelParameter> parameters;
    std::vector<KernelLoop> loops;  // in source order
    // Pointer parameters the body stores through (p[i] =, p[i] +=, *p =, ++p[i], p[i]++), passes
    // to a call (atomicAdd(&p[i], ..), f(p)), or assigns to another non-const pointer variable.
    std::set<std::string> written_parameters;
};

// The definition of the __global__ function `name`; throws RewriteError when there is none or
// more than one. Declarations without a body, comments, strings and directives are skipped.
KernelText find_kernel(std::string_view source, std::string_view name);

// One past the statement starting at code token i of `code` (a block, a for/while/switch/if/do
// statement with its body, or up to its ';'); code.size() when it does not end.
std::size_t statement_end(std::span<const Token> code, std::string_view source, std::size_t i);

// For a directive `#pragma unroll [factor]`: the factor's text ("" when none); nullopt for any
// other directive.
std::optional<std::string> unroll_pragma_factor(std::string_view directive);

}  // namespace optiml::source
