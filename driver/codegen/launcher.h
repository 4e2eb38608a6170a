// Code generation: the launcher a user's program calls instead of `kernel<<<...>>>`.
// For one spec and the tuned cache entries of its target architectures, generate_launcher()
// writes a header (optiml/<name>.h: host-only C++, so .cpp files may call the launcher) and a
// CUDA source (optiml_<name>.cu: embeds the tuned CUBIN/PTX images and compiles the original
// kernel as the fallback). The runtime shim (runtime/include/optiml/runtime.h) chooses per device.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "driver/search/candidate.h"
#include "driver/spec/spec.h"

namespace optiml::codegen {

// Inputs that cannot make a correct launcher (a variant whose parameters do not match the spec,
// two variants for one architecture, ...). what() names the spec file and the fix.
class CodegenError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct Variant;

// Dispatch by problem size (issue 29): a launch's size is the product of `arguments`' values;
// `ranges` lie along that axis, each run by the variant that holds the plan (-1) or by one of
// `variants` (same architecture, their own parameters and images).
struct SizeDispatchPlan {
    struct Range {
        double below = 0.0;  // sizes below this (and not below the previous range's) run it
        int variant = -1;    // -1: the variant holding the plan; else an index into `variants`
    };
    std::vector<std::string> arguments;    // integer scalar or launch arguments: "M", "N", "K"
    double smallest = 0.0, largest = 0.0;  // the tuned problems' sizes: outside them, untuned
    std::vector<Range> ranges;             // ascending; the last one's `below` is infinity
    std::vector<Variant> variants;
};

// "M * N * K": how a launch's size is computed along `plan`'s axis.
std::string size_axis_text(const SizeDispatchPlan& plan);

struct Variant {       // one tuned cache entry, for one architecture
    std::string arch;  // "sm_90"
    // What was tuned: every spec parameter's value, and how the winner differs from the original
    // besides them (a derived source and its transformations, its own compile options; empty
    // where it does not).
    search::Candidate winner;
    std::string lowered_name;  // mangled kernel symbol in the images
    std::string cubin;         // bytes (may be empty)
    std::string ptx;           // text (may be empty; not both)
    std::string key;           // cache key
    std::string
        summary;  // one line, e.g. "tuned on NVIDIA H200: 0.081 ms vs original 0.240 ms (2.96x)"
    // Lowered names of the spec's __constant__ symbols in the images (NVRTC name expression
    // "&symbol"); a symbol missing here is looked up by its name as written, which is right for
    // a variable at global namespace scope.
    std::map<std::string, std::string> constant_symbols;
    std::string compiler = "nvrtc";  // what compiled the images: "nvrtc" or "nvcc"
    SizeDispatchPlan by_size;        // no ranges: this variant at every size
};

struct GeneratedFiles {
    std::string header;  // goes to <dir>/include/optiml/<name>.h
    std::string source;  // goes to <dir>/optiml_<name>.cu (includes the header by that path)
};

// `notes`: extra lines for the generated comment block, e.g. "sm_80: no tuned entry; original
// kernel". `originals`: for a kernel that stays among host code, the original kernel (the spec's
// defaults) as OptiML compiled it with the target's flags, one entry per architecture of the
// target: the fallback where the program's own translation unit does not define the kernel (a
// template kernel launched only through the drop-in form); the program's own kernel is used
// wherever it does; originals at another of block_instances() serve the drop-in form's launches of
// that instantiation. Throws CodegenError for inconsistent inputs.
GeneratedFiles generate_launcher(const spec::Spec& spec, const std::vector<Variant>& variants,
                                 const std::vector<std::string>& notes,
                                 const std::vector<Variant>& originals = {});

// The instantiations of a template kernel whose template arguments size its block
// ("MatrixMulCUDA<tile_size>" with block [tile_size, tile_size]): every combination of the values
// the spec lists for those parameters (at most 64), the other parameters at their defaults, the
// spec's defaults first. Empty where no template argument sizes the block. A <<<>>> launch names
// its instantiation and the drop-in form does not, so the drop-in runs the one whose block is the
// caller's, and refuses a block that is none of them; `originals` may hold images of each.
std::vector<std::map<std::string, std::int64_t>> block_instances(const spec::Spec& spec);

// Where the files go, relative to the generated folder.
std::filesystem::path header_path(const std::string& name);  // include/optiml/<name>.h
std::filesystem::path source_path(const std::string& name);  // optiml_<name>.cu

// Writes both files under `dir` (creating folders), each only when its content changed, so an
// unchanged launcher does not make the user's build recompile; each write is atomic (temporary
// file + rename). Returns whether anything was written. Throws std::runtime_error naming the path.
bool write_generated_files(const std::filesystem::path& dir, const std::string& name,
                           const GeneratedFiles& files);

}  // namespace optiml::codegen
