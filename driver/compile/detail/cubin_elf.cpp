#include "driver/compile/detail/cubin_elf.h"

#include <cstring>

namespace optiml::compile {
namespace {

constexpr std::uint64_t kSectionHeaderSize = 0x40;
constexpr std::uint64_t kSymbolSize = 24;

bool is_elf64_le(const std::string& elf) {
    return elf.size() >= 0x40 &&
           elf.compare(0, 4,
                       "\x7f"
                       "ELF") == 0 &&
           elf[4] == 2 && elf[5] == 1;
}

std::optional<std::string> string_at(std::string_view table, std::uint64_t offset) {
    if (offset >= table.size()) return std::nullopt;
    const std::size_t end = table.find('\0', offset);
    if (end == std::string_view::npos) return std::nullopt;  // not terminated inside the table
    return std::string(table.substr(offset, end - offset));
}

}  // namespace

std::optional<std::uint64_t> read_le(std::string_view bytes, std::uint64_t offset,
                                     std::size_t width) {
    if (width > 8 || offset > bytes.size() || bytes.size() - offset < width) return std::nullopt;
    std::uint64_t value = 0;
    std::memcpy(&value, bytes.data() + offset, width);  // hosts are little-endian (x86, arm)
    return value;
}

std::optional<CubinElf> read_cubin_elf(const std::string& elf) {
    if (!is_elf64_le(elf)) return std::nullopt;
    const auto table = read_le(elf, 0x28, 8);        // e_shoff
    const auto header_size = read_le(elf, 0x3a, 2);  // e_shentsize
    const auto count = read_le(elf, 0x3c, 2);        // e_shnum
    const auto names_index = read_le(elf, 0x3e, 2);  // e_shstrndx
    if (!table || !header_size || !count || !names_index || *header_size < kSectionHeaderSize ||
        *names_index >= *count)
        return std::nullopt;
    CubinElf file;
    std::vector<std::uint32_t> name_offsets;
    for (std::uint64_t i = 0; i < *count; ++i) {
        const std::uint64_t at = *table + i * *header_size;
        const auto name = read_le(elf, at, 4);
        const auto type = read_le(elf, at + 0x04, 4);
        const auto offset = read_le(elf, at + 0x18, 8);
        const auto size = read_le(elf, at + 0x20, 8);
        const auto link = read_le(elf, at + 0x28, 4);
        const auto info = read_le(elf, at + 0x2c, 4);
        const auto entry_size = read_le(elf, at + 0x38, 8);
        if (!name || !type || !offset || !size || !link || !info || !entry_size)
            return std::nullopt;
        ElfSection section;
        section.type = static_cast<std::uint32_t>(*type);
        section.size = *size;
        section.link = static_cast<std::uint32_t>(*link);
        section.info = static_cast<std::uint32_t>(*info);
        section.entry_size = *entry_size;
        if (section.type != kElfNoBits && i != 0) {
            if (*offset > elf.size() || elf.size() - *offset < *size) return std::nullopt;
            section.bytes = std::string_view(elf).substr(*offset, *size);
        }
        name_offsets.push_back(static_cast<std::uint32_t>(*name));
        file.sections.push_back(section);
    }
    const std::string_view names = file.sections[*names_index].bytes;
    for (std::size_t i = 1; i < file.sections.size(); ++i) {
        auto name = string_at(names, name_offsets[i]);
        if (!name) return std::nullopt;
        file.sections[i].name = std::move(*name);
    }
    for (const ElfSection& symbols : file.sections) {
        if (symbols.type != kElfSymbolTable) continue;
        if (symbols.entry_size < kSymbolSize || symbols.link >= file.sections.size())
            return std::nullopt;
        const std::string_view strings = file.sections[symbols.link].bytes;
        for (std::uint64_t at = 0; at + kSymbolSize <= symbols.bytes.size();
             at += symbols.entry_size) {
            ElfSymbol symbol;
            const auto name = read_le(symbols.bytes, at, 4);
            symbol.info = static_cast<unsigned char>(*read_le(symbols.bytes, at + 4, 1));
            symbol.other = static_cast<unsigned char>(*read_le(symbols.bytes, at + 5, 1));
            symbol.section = static_cast<std::uint16_t>(*read_le(symbols.bytes, at + 6, 2));
            symbol.value = *read_le(symbols.bytes, at + 8, 8);
            symbol.size = *read_le(symbols.bytes, at + 16, 8);
            auto text = string_at(strings, *name);
            if (!text) return std::nullopt;
            symbol.name = std::move(*text);
            file.symbols.push_back(std::move(symbol));
        }
        break;  // a CUBIN has one symbol table
    }
    return file;
}

}  // namespace optiml::compile
