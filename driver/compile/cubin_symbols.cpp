#include "driver/compile/detail/cubin_symbols.h"

#include <optional>
#include <regex>

#include "driver/compile/detail/cubin_elf.h"

namespace optiml::compile {
std::vector<std::string> cubin_entry_symbols(const std::string& elf) {
    std::vector<std::string> names;
    const std::optional<CubinElf> file = read_cubin_elf(elf);
    if (!file) return names;
    for (const ElfSymbol& symbol : file->symbols)
        if ((symbol.info & 0xf) == kElfFunction && (symbol.other & kCudaEntry) != 0 &&
            !symbol.name.empty())
            names.push_back(symbol.name);
    return names;
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
