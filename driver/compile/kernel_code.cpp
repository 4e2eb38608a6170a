#include "driver/compile/kernel_code.h"

#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "driver/compile/detail/cubin_elf.h"

namespace optiml::compile {
namespace {

using Facts = std::map<std::string, std::string>;

// What a CUBIN says about its code, each fact under a name that does not depend on symbol or
// section numbering; `extras` holds the facts about data that only one compiler may emit.
struct CodeFacts {
    Facts facts;
    Facts extras;
};

bool is_debug(std::string_view name) {
    for (const std::string_view prefix :
         {".debug", ".nv_debug", ".rela.debug", ".rela.nv_debug", ".rel.debug", ".rel.nv_debug"})
        if (name.starts_with(prefix)) return true;
    return false;
}

// Sections read through other facts (names, symbols) or not about the code at all.
bool not_compared(std::string_view name) {
    return name.empty() || name == ".shstrtab" || name == ".strtab" || name == ".symtab" ||
           name == ".note.nv.tkinfo" || is_debug(name);
}

bool is_extra(std::string_view name) {
    for (const std::string_view extra : {".nv.global", ".nv.global.init", ".nv.constant4"})
        if (name == extra || name == ".rela" + std::string(extra) ||
            name == ".rel" + std::string(extra))
            return true;
    return false;
}

// Whether section `name` is one of `kernel`'s own (.text.<kernel>, .nv.info.<kernel>, ...).
bool belongs_to(std::string_view name, std::string_view kernel) {
    return name.size() > kernel.size() && name.ends_with(kernel) &&
           name[name.size() - kernel.size() - 1] == '.';
}

class Reader {
  public:
    // `kernel`: the one kernel compared (its mangled name), the image's other kernels set aside;
    // empty: all of them.
    Reader(const CubinElf& file, const std::string& kernel) : file_(file) {
        if (kernel.empty()) return;
        for (const ElfSymbol& symbol : file.symbols)
            if ((symbol.other & kCudaEntry) != 0 && symbol.name != kernel)
                others_.insert(symbol.name);
    }

    // A section of another kernel, whose facts are set aside.
    bool foreign_section(std::string_view name) const {
        for (const std::string& other : others_)
            if (belongs_to(name, other)) return true;
        return false;
    }

    // Another kernel, or a symbol of one of its sections.
    bool foreign(std::uint64_t index) const {
        if (index >= file_.symbols.size()) return false;
        const ElfSymbol& symbol = file_.symbols[index];
        return others_.count(symbol.name) > 0 || foreign_section(section_name(symbol.section));
    }

    std::string symbol(std::uint64_t index) const {
        if (index >= file_.symbols.size()) return "#" + std::to_string(index);
        const ElfSymbol& symbol = file_.symbols[index];
        return symbol.name + "@" + section_name(symbol.section);
    }

    std::string section_name(std::uint64_t index) const {
        return index < file_.sections.size() ? file_.sections[index].name
                                             : "#" + std::to_string(index);
    }

    // Relocations as (offset, type, symbol, addend), the symbol by name.
    std::optional<std::string> relocations(const ElfSection& section) const {
        const bool with_addend = section.type == kElfRela;
        const std::uint64_t size = with_addend ? 24 : 16;
        if (section.entry_size != 0 && section.entry_size != size) return std::nullopt;
        std::string text;
        for (std::uint64_t at = 0; at + size <= section.bytes.size(); at += size) {
            const std::uint64_t info = *read_le(section.bytes, at + 8, 8);
            text += std::to_string(*read_le(section.bytes, at, 8)) + " " +
                    std::to_string(info & 0xffffffffu) + " " + symbol(info >> 32);
            if (with_addend) text += " " + std::to_string(*read_le(section.bytes, at + 16, 8));
            text += "\n";
        }
        return text;
    }

    // The EIATTR records of .nv.info and .nv.info.<kernel>: a format byte, an attribute byte, and
    // a 16-bit value or (format 4) the size of a payload that follows. Where a payload names a
    // function or section by symbol index, the index is read as the symbol's name.
    std::optional<std::string> attributes(std::string_view bytes) const {
        std::string text;
        std::uint64_t at = 0;
        while (at < bytes.size()) {
            const auto format = read_le(bytes, at, 1);
            const auto attribute = read_le(bytes, at + 1, 1);
            const auto value = read_le(bytes, at + 2, 2);
            if (!format || !attribute || !value || *format < 1 || *format > 4) return std::nullopt;
            at += 4;
            if (*format != 4) {
                text += std::to_string(*attribute) + ":" + std::to_string(*value) + "\n";
                continue;
            }
            if (bytes.size() - at < *value) return std::nullopt;
            const std::string_view payload = bytes.substr(at, *value);
            at += *value;
            const std::size_t indices = symbol_indices(*attribute, payload.size());
            if (indices > 0 && foreign(*read_le(payload, 0, 4))) continue;  // another kernel's
            text += std::to_string(*attribute) + ":";
            for (std::uint64_t word = 0; word < indices; ++word)
                text += symbol(*read_le(payload, 4 * word, 4)) + ",";
            for (std::size_t i = 4 * indices; i < payload.size(); ++i)
                text += std::to_string(static_cast<unsigned char>(payload[i])) + ",";
            text += "\n";
        }
        return text;
    }

    // Caller and callee pairs of 32-bit symbol indices (values past the table mark no call).
    std::string call_graph(std::string_view bytes) const {
        std::string text;
        for (std::uint64_t at = 0; at + 8 <= bytes.size(); at += 8) {
            const std::uint64_t caller = *read_le(bytes, at, 4);
            if (!foreign(caller))
                text += symbol(caller) + "->" + symbol(*read_le(bytes, at + 4, 4)) + "\n";
        }
        return text;
    }

  private:
    // How many leading 32-bit words of an attribute's payload are symbol indices.
    static std::size_t symbol_indices(std::uint64_t attribute, std::size_t payload_size) {
        switch (attribute) {
            case 0x0a:  // PARAM_CBANK: the kernel's constant-bank section, offset, size
            case 0x11:  // FRAME_SIZE of a function
            case 0x12:  // MIN_STACK_SIZE
            case 0x23:  // MAX_STACK_SIZE
            case 0x2f:  // REGCOUNT
                return payload_size >= 4 ? 1 : 0;
            case 0x0f:  // EXTERNS: a list of symbols
                return payload_size / 4;
            default:
                return 0;
        }
    }

    const CubinElf& file_;
    std::set<std::string> others_;
};

std::optional<CodeFacts> code_facts(const std::string& image, const std::string& kernel) {
    const std::optional<CubinElf> file = read_cubin_elf(image);
    if (!file) return std::nullopt;
    const Reader reader(*file, kernel);
    CodeFacts out;
    for (std::size_t i = 1; i < file->sections.size(); ++i) {
        const ElfSection& section = file->sections[i];
        if (not_compared(section.name) || reader.foreign_section(section.name)) continue;
        Facts& facts = is_extra(section.name) ? out.extras : out.facts;
        std::optional<std::string> fact;
        if (section.type == kElfRela || section.type == kElfRel)
            fact = reader.relocations(section);
        else if (section.name == ".nv.info" || section.name.starts_with(".nv.info."))
            fact = reader.attributes(section.bytes);
        else if (section.name == ".nv.callgraph")
            fact = reader.call_graph(section.bytes);
        else if (section.type == kElfNoBits)
            fact = "size " + std::to_string(section.size);
        else
            fact = std::string(section.bytes);
        if (!fact) return std::nullopt;
        if (!facts.emplace("section " + section.name, std::move(*fact)).second) return std::nullopt;
    }
    std::map<std::string, int> seen;
    for (std::size_t i = 0; i < file->symbols.size(); ++i) {
        const ElfSymbol& symbol = file->symbols[i];
        if (reader.foreign(i)) continue;
        const std::string place = reader.section_name(symbol.section);
        Facts& facts = is_extra(place) ? out.extras : out.facts;
        std::string name = "symbol " + symbol.name + "@" + place;
        if (const int n = seen[name]++; n > 0) name += "#" + std::to_string(n);
        facts[name] = std::to_string(symbol.info) + " " + std::to_string(symbol.other) + " " +
                      std::to_string(symbol.value) + " " + std::to_string(symbol.size);
    }
    return out;
}

}  // namespace

bool same_kernel_code(const std::string& a, const std::string& b, const std::string& kernel) {
    const std::optional<CodeFacts> first = code_facts(a, kernel);
    const std::optional<CodeFacts> second = code_facts(b, kernel);
    if (!first || !second || first->facts != second->facts) return false;
    for (const auto& [name, fact] : first->extras)
        if (const auto it = second->extras.find(name);
            it != second->extras.end() && it->second != fact)
            return false;
    return true;
}

}  // namespace optiml::compile
