// `optiml init`'s work: a spec skeleton for one kernel, written from its source text. What the
// source says is filled in (arguments with their types, pointer-ness and roles from const, the
// tunable macros and template parameters with their defaults, Kernel Tuner's block_size_x/y/z
// launch convention); every decision the source cannot answer is a "TODO: ..." marker that the
// spec loader rejects until it is replaced, each explained by a // comment.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "driver/source/tunable_knobs.h"

namespace optiml::init {

// What a real launch showed (captured_spec.h fills it from `optiml capture`): each field set
// replaces the skeleton's "TODO:" marker for it; "" leaves the marker.
struct ObservedArgument {
    std::string value;      // scalar: its value, as JSON number text
    std::string count;      // pointer: its element count, an expression ("n", "4096")
    std::string fill_path;  // pointer: a data file for a "file" fill, relative to the spec
    std::vector<std::string> comments;  // where each value came from
};

// A parameter the kernel's source does not declare, tuned through the launch alone: the threads
// per block of a kernel that reads blockDim (captured_spec.cpp says when).
struct LaunchParameter {
    std::string name;
    std::vector<long long> values;
    long long default_value = 0;
    std::vector<std::string> comments;
};

// A size the program launched the kernel at: a JSON object of integer scalar arguments' values
// (one of the spec's `problems`), with the comment lines written before it.
struct ObservedProblem {
    std::vector<std::string> comments;
    std::string json;
};

struct ObservedLaunch {
    std::vector<std::string> header;          // comment lines after the skeleton's own
    std::vector<ObservedArgument> arguments;  // one per kernel parameter
    // JSON values (an expression in quotes, or a number) of launch.block, grid and shared memory.
    std::array<std::string, 3> block, grid;
    std::string shared_memory_bytes;
    std::vector<std::string> launch_comments;
    std::vector<LaunchParameter> launch_parameters;  // written after the source's own
    // The launched instantiation's template arguments, one per template parameter of the kernel
    // (template_arguments.h); empty when unknown. They replace the markers `init` leaves.
    std::vector<std::string> template_arguments;
    // Per axis, the tuned template parameter whose value the block is ("" none): its values are
    // then block sizes, and the constraint keeps a block within 1024 threads.
    std::array<std::string, 3> block_parameters;
    // Where the program launched the kernel at more than one size: `problems`, after the launch,
    // with the comment lines `problems_comments` before the field.
    std::vector<ObservedProblem> problems;
    std::vector<std::string> problems_comments;
};

// The spec parameter that stands for the kernel's integer template parameter `p`: a macro, so it
// is spelled unlike any identifier of `source`.
std::string tuned_template_name(const source::TemplateParameter& p, std::string_view source);

// Kernel Tuner's block sizes: powers of two from a quarter to four times the default, within a
// block's 1024 threads, the default among them.
std::vector<long long> block_size_values(long long default_value);

// The skeleton's text. `source_path` is how the spec names the kernel source (relative to the
// spec's folder). Throws source::RewriteError when the kernel is not defined in `source`.
// With `observed`, its values are written where the skeleton has markers, and a pointer the
// kernel writes is "inout" (compared like an output, filled like an input: right whether or not it
// reads the buffer first).
std::string spec_skeleton(std::string_view source, const std::string& source_path,
                          const std::string& kernel, const ObservedLaunch* observed = nullptr);

// How many "TODO: ..." markers (decisions left) `spec_text` holds.
std::size_t count_markers(std::string_view spec_text);

}  // namespace optiml::init
