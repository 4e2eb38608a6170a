// The one error the kernel-text editor throws: the named kernel cannot be located (missing,
// defined twice) or a rewrite was asked for something meaningless. A rewrite whose precondition
// merely does not hold returns std::nullopt instead, so callers can tell "no move" from "bug".
#pragma once

#include <stdexcept>
#include <string>

namespace optiml::source {

class RewriteError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace optiml::source
