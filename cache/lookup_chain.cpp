#include "cache/lookup_chain.h"

namespace optiml::cache {

void LookupChain::add(std::unique_ptr<Backend> backend, std::string label) {
    links_.push_back({std::move(backend), std::move(label)});
}

std::optional<Found> LookupChain::fetch(const std::string& key,
                                        const std::function<void(const std::string&)>& warn) const {
    for (const Link& link : links_) {
        try {
            if (auto entry = link.backend->fetch(key))
                return Found{std::move(*entry), link.label + " " + link.backend->location()};
        } catch (const CacheError& e) {
            warn("ignoring a damaged cache entry: " + std::string(e.what()));
        }
    }
    return std::nullopt;
}

}  // namespace optiml::cache
