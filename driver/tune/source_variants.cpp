#include "driver/tune/source_variants.h"

#include <stdexcept>

#include "cache/key.h"

namespace optiml::tune {

std::string SourceVariants::add(std::string text) {
    std::string id = cache::sha256_hex(text);
    texts_.emplace(id, std::move(text));
    return id;
}

const std::string& SourceVariants::text(const std::string& id) const {
    if (id.empty()) return original_;
    const auto found = texts_.find(id);
    if (found == texts_.end())
        throw std::out_of_range("no derived source with id " + id +
                                " was added before its candidate was submitted");
    return found->second;
}

}  // namespace optiml::tune
