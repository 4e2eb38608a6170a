// A CUBIN read as the ELF file it is: its sections (name, type, bytes) and its symbols. Every
// offset is bounds-checked, so damaged bytes read as nullopt, never past the end. The one reader
// that cubin_symbols.h and kernel_code.h look through.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace optiml::compile {

struct ElfSection {
    std::string name;
    std::uint32_t type = 0;  // SHT_*: 2 symbol table, 4 RELA, 8 NOBITS (.nv.shared: a size only)
    std::uint64_t size = 0;
    std::uint32_t link = 0;
    std::uint32_t info = 0;
    std::uint64_t entry_size = 0;
    std::string_view bytes;  // empty for NOBITS; views the file's bytes
};

struct ElfSymbol {
    std::string name;
    unsigned char info = 0;   // type in the low nibble (2 a function, 3 a section), binding above
    unsigned char other = 0;  // 0x10: a __global__ function (a CUDA entry)
    std::uint16_t section = 0;
    std::uint64_t value = 0;
    std::uint64_t size = 0;
};

struct CubinElf {
    std::vector<ElfSection> sections;  // in the file's order, the null section first
    std::vector<ElfSymbol> symbols;    // .symtab's, in order: a relocation's index reads here
};

constexpr std::uint32_t kElfSymbolTable = 2;  // SHT_SYMTAB
constexpr std::uint32_t kElfRela = 4;         // SHT_RELA
constexpr std::uint32_t kElfNoBits = 8;       // SHT_NOBITS
constexpr std::uint32_t kElfRel = 9;          // SHT_REL
constexpr unsigned char kElfFunction = 2;     // STT_FUNC, in ElfSymbol::info's low nibble
constexpr unsigned char kCudaEntry = 0x10;    // in ElfSymbol::other: a __global__ function

// A 64-bit little-endian ELF file (a CUBIN), or nullopt for bytes that are not a well-formed one.
std::optional<CubinElf> read_cubin_elf(const std::string& elf);

// A little-endian integer at `offset` of `bytes`, or nullopt past the end.
std::optional<std::uint64_t> read_le(std::string_view bytes, std::uint64_t offset,
                                     std::size_t width);

}  // namespace optiml::compile
