// Whether two CUBINs hold the same kernel: what nvcc compiles from a whole file and from its device
// code alone, or what NVRTC and nvcc compile from the same device code. Their bytes differ where
// nothing that runs does: the debug sections name the compiled file, the whole file holds the
// other instances of a template its host code launches, and NVRTC keeps an unused namespace-scope
// constant (`constexpr int kUnroll = ...`) as a global of its own, which adds sections and
// renumbers every symbol after it.
#pragma once

#include <string>

namespace optiml::compile {

// The same machine code and the same launch facts: every code section's bytes, every kernel's
// parameter bank, shared memory, registers, stack and attributes, every relocation and call edge
// (their symbols compared by name, not by index) and every symbol's place and size. Data only one
// image holds may differ only where no code and no symbol of the other refers to it: a global
// (.nv.global, .nv.global.init) and the address bank the driver fills for it (.nv.constant4).
// Debug sections and the toolchain note (the compiler's command line) are not compared.
// With `kernel` (a mangled name), the images' other kernels are set aside: their sections, their
// attributes and calls, their symbols; a whole file that launches a template at other values
// than the name expression's holds those instances, its device code alone does not.
bool same_kernel_code(const std::string& a, const std::string& b, const std::string& kernel = "");

}  // namespace optiml::compile
