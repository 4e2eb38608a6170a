// The pieces generate_launcher() assembles. Internal to driver/codegen.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "driver/codegen/launcher.h"
#include "driver/spec/spec.h"

namespace optiml::codegen {

// A validated variant and where it sits in the generated tables.
struct PreparedVariant {
    const Variant* variant;
    int arch;   // 90 for "sm_90"
    int index;  // the launcher's variant number (runtime Image::variant)
};

// "cudaStream_t stream, int n, const float* x, float* y": the launcher's parameters; each
// argument's name gets `prefix` (the .cu definition prefixes them so that macros the kernel
// source defines cannot collide with them).
std::string launcher_parameters(const spec::Spec& spec, std::string_view prefix);

// The C++ type of a __constant__ symbol's elements, and the setter's name for it.
std::string setter_name(const spec::Spec& spec, const spec::ConstantSymbol& constant);

// Parameter values for the original kernel: each parameter's default.
std::map<std::string, std::int64_t> default_values(const spec::Spec& spec);

// "block_size_x=512, items_per_thread=4" in the spec's parameter order ("no parameters" if none).
std::string parameters_text(const spec::Spec& spec,
                            const std::map<std::string, std::int64_t>& values);

std::string render_header(const spec::Spec& spec);

// The comment block at the top of the .cu: which variant each architecture gets and why.
std::string render_dispatch_comment(const spec::Spec& spec,
                                    const std::vector<PreparedVariant>& variants,
                                    const std::vector<std::string>& notes);

// The embedded images, the Image table and the KernelTable (inside the generated namespace).
std::string render_images(const std::vector<PreparedVariant>& variants);

// The definitions of the functions the header declares.
std::string render_functions(const spec::Spec& spec, const std::vector<PreparedVariant>& variants);

// The whole .cu: comment block, the header and the kernel source included, tables, functions.
std::string render_source(const spec::Spec& spec, const std::vector<PreparedVariant>& variants,
                          const std::vector<std::string>& notes);

// The namespace holding the generated tables: optiml_generated_<name>.
std::string generated_namespace(const spec::Spec& spec);

}  // namespace optiml::codegen
