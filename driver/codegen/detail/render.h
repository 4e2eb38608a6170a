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
// The variants of each architecture come first, in architecture order; the variants their
// size-dispatch plans name follow (`parent` the number of the one whose plan names them).
struct PreparedVariant {
    const Variant* variant;
    int arch;                     // 90 for "sm_90"
    int index;                    // the launcher's variant number (runtime Image::variant)
    int parent = -1;              // a size variant's: the variant whose plan names it
    int first_size_variant = -1;  // where this variant's plan's variants are numbered from
};

// "cudaStream_t stream, int n, const float* x, float* y": the launcher's parameters; each
// argument's name gets `prefix` (the .cu definition prefixes them so that macros the kernel
// source defines cannot collide with them).
// Prefix of the launchers' parameter names in the .cu, so that macros the kernel source defines
// cannot collide with them.
inline constexpr const char* arg_prefix = "arg_";

// The launch arguments follow the kernel's arguments.
std::string launcher_parameters(const spec::Spec& spec, std::string_view prefix);
// ", int n, const float* x, float* y, int rows": the kernel's arguments, then the launch
// arguments, each with `prefix`.
std::string argument_list(const spec::Spec& spec, std::string_view prefix);

// The drop-in form of a <<<>>> launch: its name (<name>_launch) and its parameters,
// "dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream, <argument_list>"; with a
// non-empty `prefix` (the .cu definition) the first three are caller_grid, caller_block and
// caller_shared_bytes.
std::string dropin_name(const spec::Spec& spec);
std::string dropin_parameters(const spec::Spec& spec, std::string_view prefix);

// The C++ type of a __constant__ symbol's elements, and the setter's name for it.
std::string setter_name(const spec::Spec& spec, const spec::ConstantSymbol& constant);

// Parameter values for the original kernel: each parameter's default.
std::map<std::string, std::int64_t> default_values(const spec::Spec& spec);

// "block_size_x=512, items_per_thread=4" in the spec's parameter order ("no parameters" if none).
std::string parameters_text(const spec::Spec& spec,
                            const std::map<std::string, std::int64_t>& values);

std::string render_header(const spec::Spec& spec);

// The kernel's name expression at `values`: "MatrixMulCUDA<16>" for "MatrixMulCUDA<tile_size>".
std::string instance_kernel(const spec::Spec& spec,
                            const std::map<std::string, std::int64_t>& values);

// Assignments `target[0..2] = <block extent at values>;`, each line starting with `indent`.
std::string render_block(const spec::Spec& spec, const std::map<std::string, std::int64_t>& values,
                         std::string_view target, std::string_view indent);

// The comment block at the top of the .cu: which variant each architecture gets and why.
std::string render_dispatch_comment(const spec::Spec& spec,
                                    const std::vector<PreparedVariant>& variants,
                                    const std::vector<std::string>& notes);

// The embedded images, the Image table and the KernelTable (inside the generated namespace):
// `<prefix>table` of `variants`' images; `of_original`: they are the original's
// ("original_table"), which OPTIML_FORCE_ORIGINAL keeps.
std::string render_images(const std::vector<PreparedVariant>& variants,
                          std::string_view prefix = "", bool of_original = false);

// The size variant that runs `range` of `owner`'s plan; nullptr where `owner` runs it.
const PreparedVariant* size_variant(const std::vector<PreparedVariant>& variants,
                                    const PreparedVariant& owner,
                                    const SizeDispatchPlan::Range& range);

// The name of the KernelTable of a size variant's images: "size_3_table".
std::string size_table(const PreparedVariant& variant);

// After render_resolve(): where the variant the device resolved dispatches by problem size, the
// launch's size picks `chosen` (table_for_size) and resolves `kernel` and `dispatch` from it;
// each line starts with four spaces. Empty where no variant has a plan. In the generated
// namespace go render_untuned_notes(), the flags that say once that a size was not tuned, and
// then render_table_for_size(), the function that picks.
std::string render_size_choice(const spec::Spec& spec,
                               const std::vector<PreparedVariant>& variants);
std::string render_untuned_notes(const spec::Spec& spec,
                                 const std::vector<PreparedVariant>& variants);
std::string render_table_for_size(const std::vector<PreparedVariant>& variants);

// The launch geometry of the variant `dispatch.variant` (the original's by default) as a
// `switch` assigning `geometry`, each line starting with `indent`.
std::string render_geometry(const spec::Spec& spec, const std::vector<PreparedVariant>& variants,
                            std::string_view indent);
// The statements shared by both launch forms: `device`, `kernel`, `dispatch` and `chosen` (the
// KernelTable `kernel` came from) for the current device (returning on error), and, at the end,
// the launch of `kernel` (or the original) with `grid`, `block`, `shared_bytes` and the kernel's
// arguments on `stream`.
// `original` is the C++ expression of the original kernel to run where `kernel` is null.
std::string render_resolve(const spec::Spec& spec);
std::string render_kernel_launch(const spec::Spec& spec, std::string_view original);

// The drop-in form's definition.
std::string render_dropin(const spec::Spec& spec, const std::vector<PreparedVariant>& variants);

// The definitions of the functions the header declares.
std::string render_functions(const spec::Spec& spec, const std::vector<PreparedVariant>& variants);

// The whole .cu: comment block, the header and the kernel source included, tables, functions.
// `originals[i]`: the original's images at block_instances()[i] (one group, at the defaults,
// where the kernel has no such instances).
std::string render_source(const spec::Spec& spec, const std::vector<PreparedVariant>& variants,
                          const std::vector<std::string>& notes,
                          const std::vector<std::vector<PreparedVariant>>& originals);

// The namespace holding the generated tables: optiml_generated_<name>.
std::string generated_namespace(const spec::Spec& spec);

}  // namespace optiml::codegen
