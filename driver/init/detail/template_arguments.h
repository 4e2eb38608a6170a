// The template arguments of a captured kernel instantiation, read from its demangled name:
// "void MatrixMulCUDA<32>(float*, float*, float*, int, int)" -> {"32"}. `optiml capture` writes
// them where `optiml init` can only ask (a template parameter without a default).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "driver/source/kernel_text.h"

namespace optiml::init {

// The arguments of `kernel`'s template-id in `demangled`, in order, as the demangler spells them
// ("32", "float", "32u"); empty when the name holds no template-id of `kernel` (not a template,
// or not demangled).
std::vector<std::string> template_arguments(const std::string& demangled,
                                            const std::string& kernel);

// Template type parameter name -> the type `captured` (template_arguments() of the launch, or
// empty) gives it, else its default: what the kernel's T-typed arguments are.
std::map<std::string, std::string> template_types(std::string_view source,
                                                  const source::KernelText& kernel,
                                                  const std::vector<std::string>& captured);

}  // namespace optiml::init
