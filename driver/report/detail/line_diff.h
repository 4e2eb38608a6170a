// A unified diff of two texts by lines (longest common subsequence), for `optiml explain` to
// show what one transformation changed in a kernel. Kernels are hundreds of lines, so the
// quadratic table is small.
#pragma once

#include <string>
#include <string_view>

namespace optiml::report {

// "--- a/<name>\n+++ b/<name>\n@@ -l,n +l,n @@\n ..." with `context` unchanged lines around each
// change; empty when the texts are equal.
std::string unified_diff(std::string_view before, std::string_view after, std::string_view name,
                         int context = 2);

}  // namespace optiml::report
