// Whether two CUBINs hold the same device code, at two strengths. nvcc compiling a file whole and
// its device code alone must agree byte for byte (same_device_code). NVRTC and nvcc never do: NVRTC
// keeps an unused namespace-scope constant (`constexpr int kUnroll = ...`) as a global of its own,
// which adds sections and renumbers every symbol after it; same_kernel_code looks through that.
#pragma once

#include <string>

namespace optiml::compile {

// The same sections, every one but the debug sections (whose line tables name the compiled file's
// size) with the same bytes.
bool same_device_code(const std::string& a, const std::string& b);

// The same machine code and the same launch facts: every code section's bytes, every kernel's
// parameter bank, shared memory, registers, stack and attributes, every relocation and call edge
// (their symbols compared by name, not by index) and every symbol's place and size. Data only one
// image holds may differ only where no code and no symbol of the other refers to it: a global
// (.nv.global, .nv.global.init) and the address bank the driver fills for it (.nv.constant4).
// Debug sections and the toolchain note (the compiler's command line) are not compared.
bool same_kernel_code(const std::string& a, const std::string& b);

}  // namespace optiml::compile
