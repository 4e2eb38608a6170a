// Which pointer parameters a kernel body may write through. Conservative by design: a pointer
// whose value escapes (passed to a call, assigned to a non-const pointer) counts as written, so
// a rewrite never makes const, or loads through the read-only cache, what the kernel stores to.
#pragma once

#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "driver/source/cuda_tokens.h"
#include "driver/source/kernel_text.h"

namespace optiml::source {

// body: the code tokens of the kernel's body, its braces included.
std::set<std::string> written_pointer_parameters(std::span<const Token> body,
                                                 std::string_view source,
                                                 const std::vector<KernelParameter>& parameters);

}  // namespace optiml::source
