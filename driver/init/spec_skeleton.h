// `optiml init`'s work: a spec skeleton for one kernel, written from its source text. What the
// source says is filled in (arguments with their types, pointer-ness and roles from const, the
// tunable macros and template parameters with their defaults, Kernel Tuner's block_size_x/y/z
// launch convention); every decision the source cannot answer is a "TODO: ..." marker that the
// spec loader rejects until it is replaced, each explained by a // comment.
#pragma once

#include <string>
#include <string_view>

namespace optiml::init {

// The skeleton's text. `source_path` is how the spec names the kernel source (relative to the
// spec's folder). Throws propose::RewriteError when the kernel is not defined in `source`.
std::string spec_skeleton(std::string_view source, const std::string& source_path,
                          const std::string& kernel);

}  // namespace optiml::init
