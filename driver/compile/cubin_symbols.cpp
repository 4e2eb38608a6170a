#include "driver/compile/detail/cubin_symbols.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <regex>

namespace optiml::compile {
namespace {

constexpr std::uint32_t kSymtab = 2;        // SHT_SYMTAB
constexpr unsigned char kFunction = 2;      // STT_FUNC
constexpr unsigned char kCudaEntry = 0x10;  // st_other: a __global__ function

// A little-endian integer at `offset`, or nullopt past the end.
template <typename T>
std::optional<T> read_at(const std::string& bytes, std::uint64_t offset) {
    if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return std::nullopt;
    T value{};
    std::memcpy(&value, bytes.data() + offset, sizeof(T));  // hosts are little-endian (x86, arm)
    return value;
}

struct Section {
    std::uint32_t type = 0;
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::uint32_t link = 0;
    std::uint64_t entry_size = 0;
};

std::optional<Section> section(const std::string& elf, std::uint16_t index) {
    const auto table = read_at<std::uint64_t>(elf, 0x28);  // e_shoff
    const auto header_size = read_at<std::uint16_t>(elf, 0x3a);
    const auto count = read_at<std::uint16_t>(elf, 0x3c);
    if (!table || !header_size || !count || index >= *count || *header_size < 0x40)
        return std::nullopt;
    const std::uint64_t at = *table + std::uint64_t{index} * *header_size;
    const auto type = read_at<std::uint32_t>(elf, at + 0x04);
    const auto offset = read_at<std::uint64_t>(elf, at + 0x18);
    const auto size = read_at<std::uint64_t>(elf, at + 0x20);
    const auto link = read_at<std::uint32_t>(elf, at + 0x28);
    const auto entry_size = read_at<std::uint64_t>(elf, at + 0x38);
    if (!type || !offset || !size || !link || !entry_size) return std::nullopt;
    if (*offset > elf.size() || elf.size() - *offset < *size) return std::nullopt;
    return Section{*type, *offset, *size, *link, *entry_size};
}

std::optional<std::string> string_at(const std::string& elf, const Section& strings,
                                     std::uint32_t offset) {
    if (offset >= strings.size) return std::nullopt;
    const char* start = elf.data() + strings.offset + offset;
    const std::size_t limit = strings.size - offset;
    const std::size_t length = strnlen(start, limit);
    if (length == limit) return std::nullopt;  // not terminated inside the table
    return std::string(start, length);
}

// The only kind of file these read: a 64-bit little-endian ELF file (a CUBIN).
bool is_elf64_le(const std::string& elf) {
    return elf.size() >= 0x40 &&
           elf.compare(0, 4,
                       "\x7f"
                       "ELF") == 0 &&
           elf[4] == 2 && elf[5] == 1;
}

}  // namespace

std::vector<std::string> cubin_entry_symbols(const std::string& elf) {
    std::vector<std::string> names;
    if (!is_elf64_le(elf)) return names;
    const auto count = read_at<std::uint16_t>(elf, 0x3c);
    for (std::uint16_t i = 0; count && i < *count; ++i) {
        const auto symbols = section(elf, i);
        if (!symbols || symbols->type != kSymtab || symbols->entry_size < 24) continue;
        const auto strings = section(elf, static_cast<std::uint16_t>(symbols->link));
        if (!strings) continue;
        for (std::uint64_t at = symbols->offset; at + 24 <= symbols->offset + symbols->size;
             at += symbols->entry_size) {
            const auto name = read_at<std::uint32_t>(elf, at);
            const auto info = read_at<unsigned char>(elf, at + 4);
            const auto other = read_at<unsigned char>(elf, at + 5);
            if (!name || !info || !other) break;
            if ((*info & 0xf) != kFunction || (*other & kCudaEntry) == 0) continue;
            if (auto text = string_at(elf, *strings, *name); text && !text->empty())
                names.push_back(std::move(*text));
        }
    }
    return names;
}

std::optional<std::map<std::string, std::string_view>> cubin_sections(const std::string& elf) {
    const auto count = read_at<std::uint16_t>(elf, 0x3c);
    const auto names_index = read_at<std::uint16_t>(elf, 0x3e);
    const auto table = read_at<std::uint64_t>(elf, 0x28);
    if (!is_elf64_le(elf) || !count || !names_index || !table) return std::nullopt;
    const auto names = section(elf, *names_index);
    if (!names) return std::nullopt;
    std::map<std::string, std::string_view> sections;
    for (std::uint16_t i = 1; i < *count; ++i) {  // section 0 is the null section
        const auto header = section(elf, i);
        const auto name_offset = read_at<std::uint32_t>(elf, *table + std::uint64_t{i} * 0x40);
        if (!header || !name_offset) return std::nullopt;
        auto name = string_at(elf, *names, *name_offset);
        if (!name) return std::nullopt;
        constexpr std::uint32_t kNoBits = 8;  // SHT_NOBITS (.bss, .nv.shared): size, no bytes
        sections[*name] = header->type == kNoBits
                              ? std::string_view()
                              : std::string_view(elf).substr(header->offset, header->size);
    }
    return sections;
}

std::vector<std::string> ptx_entry_symbols(const std::string& ptx) {
    static const std::regex entry(R"(\.entry\s+([A-Za-z_$][A-Za-z0-9_$]*)\s*\()");
    std::vector<std::string> names;
    for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), entry);
         it != std::sregex_iterator(); ++it)
        names.push_back((*it)[1].str());
    return names;
}

}  // namespace optiml::compile
