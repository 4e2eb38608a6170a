// Which mangled symbol of a compiled image is the kernel a name expression means ("saxpy",
// "gemm<float, 4>", "ns::k<32>"): NVRTC answers that itself (name expressions), for nvcc's output
// the image's entry symbols are demangled (the C++ runtime's demangler) and compared.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace optiml::compile {

// The demangled name without return type and parameters, spaces removed:
// "_Z10scale_rowsILi32EEvPfi"
// -> "scale_rows<32>". A name that is not mangled (extern "C") comes back as it is.
std::string kernel_name_of_symbol(const std::string& symbol);

// The one symbol whose name is `name_expression` (spaces and a leading "::" ignored); nullopt
// when none is (or, for an overloaded name, more than one is).
std::optional<std::string> find_kernel_symbol(const std::vector<std::string>& symbols,
                                              const std::string& name_expression);

// The name expression with each identifier that names a define replaced by its value, as the
// preprocessor sees it: "MatrixMulCUDA<block_size>" with block_size=32 -> "MatrixMulCUDA<32>"
// (a tuned template argument: the compile request names the instance, whose demangled symbol
// holds the value).
std::string expand_defines(const std::string& name_expression,
                           const std::map<std::string, std::int64_t>& defines);

}  // namespace optiml::compile
