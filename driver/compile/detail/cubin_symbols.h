// The kernels a compiled image defines, by mangled name: what nvcc's output is searched for,
// since nvcc (unlike NVRTC) has no name-expression API. A CUBIN is an ELF file whose kernels are
// the function symbols marked as CUDA entries (st_other bit 0x10) in .symtab; PTX declares them
// as `.entry NAME(`. No cuobjdump needed (a toolkit may lack it).
#pragma once

#include <string>
#include <vector>

namespace optiml::compile {

// Entry symbols of a 64-bit little-endian ELF CUBIN, in symbol-table order; empty for bytes that
// are not one (or are damaged: every offset is bounds-checked).
std::vector<std::string> cubin_entry_symbols(const std::string& elf);

// `.entry` names of PTX text, in order.
std::vector<std::string> ptx_entry_symbols(const std::string& ptx);

}  // namespace optiml::compile
