// The spec's types in the C interface of a project's host functions (optiml/compare.h,
// optiml/generate.h): element types and scalar arguments.
#pragma once

#include <string>
#include <vector>

#include "driver/measure/protocol.h"
#include "runtime/include/optiml/compare.h"

namespace optiml::measure {

optiml_element_type c_type(spec::ElementType type);

// Every scalar of `arguments`, in order, with its value; the names point into `arguments`.
std::vector<optiml_scalar> c_scalars(const std::vector<BufferSpec>& arguments);

// The text a function wrote into its message buffer, cut at its first NUL (or at the buffer's
// end, whatever it wrote); `fallback` when it wrote none.
std::string message_text(std::string buffer, const std::string& fallback);

}  // namespace optiml::measure
