// A kernel parameter's C++ type as a spec element type: "const float* __restrict__ x" ->
// float32. Internal to driver/init.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "driver/source/kernel_text.h"
#include "driver/spec/spec.h"

namespace optiml::init {

// The parameter's base type without qualifiers, '*' and name: "float", "unsigned int", "T".
std::string base_type(const source::KernelParameter& parameter);

// "float" -> Float32, "unsigned" -> UInt32, "int64_t" -> Int64; nullopt for types specs do not
// have (half, structs, template type parameters).
std::optional<spec::ElementType> element_type(const std::string& base_type);

// Template type parameter name -> its default ("T" -> "float") of the kernel's template.
std::map<std::string, std::string> template_type_defaults(std::string_view source,
                                                          const source::KernelText& kernel);

// The parameter's base type with a template type parameter replaced by its default.
std::string resolved_base_type(const source::KernelParameter& parameter,
                               const std::map<std::string, std::string>& type_defaults);

}  // namespace optiml::init
