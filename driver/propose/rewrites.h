// Source rewrites of one named kernel, each a pure function of the whole source text. Each edits
// only inside that kernel's declaration and body, keeps its name and signature (parameters may
// gain qualifiers), and returns the new whole source, or std::nullopt when its precondition does
// not hold (already applied, nothing to change, no such loop), so that a proposer can offer
// exactly the moves that change something. They compose: each re-reads the text it is given.
// Throws RewriteError when the kernel cannot be located or an argument is out of range.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace optiml::propose {

// `__launch_bounds__(max_threads)` or `__launch_bounds__(max_threads, min_blocks)` before the
// kernel's name; nullopt when it already has launch bounds.
std::optional<std::string> add_launch_bounds(std::string_view source, std::string_view kernel,
                                             int max_threads, int min_blocks = 0);

// `#pragma unroll` (factor 0) or `#pragma unroll factor` on its own line before the `for` at
// loop_line, indented like it; an existing unroll pragma there gets the new factor. nullopt when
// the kernel has no `for` on that line or the pragma already says the same.
std::optional<std::string> unroll_loop(std::string_view source, std::string_view kernel,
                                       int loop_line, int factor);

// `__restrict__` on every pointer parameter lacking it, and `const` on the pointee of each one
// named in read_only that the body does not write; nullopt when nothing changes.
std::optional<std::string> restrict_pointers(std::string_view source, std::string_view kernel,
                                             const std::set<std::string>& read_only);

// Reads `p[expr]` of each parameter p named in read_only, not written by the body and pointing
// to a type __ldg loads (float, int, float4, ...), become `__ldg(&p[expr])`; nullopt when none.
std::optional<std::string> load_through_ldg(std::string_view source, std::string_view kernel,
                                            const std::set<std::string>& read_only);

}  // namespace optiml::propose
