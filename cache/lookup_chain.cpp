#include "cache/lookup_chain.h"

#include "cache/detail/remote_http.h"
#include "cache/trust.h"

namespace optiml::cache {

void LookupChain::add(std::unique_ptr<Backend> backend, std::string label, Backend* copy_hits_to) {
    links_.push_back({std::move(backend), std::move(label), copy_hits_to});
}

std::optional<Found> LookupChain::fetch(const std::string& key,
                                        const std::function<void(const std::string&)>& warn) const {
    for (const Link& link : links_) {
        std::optional<Entry> entry;
        try {
            entry = link.backend->fetch(key);
        } catch (const UntrustedEntryError& e) {
            warn("rejecting an untrusted cache entry: " + std::string(e.what()));
        } catch (const RemoteUnavailableError& e) {
            warn(std::string(e.what()) + "; the build goes on without it");
        } catch (const CacheError& e) {
            warn("ignoring a damaged cache entry: " + std::string(e.what()));
        }
        if (!entry) continue;
        if (link.copy_hits_to != nullptr) {
            try {
                link.copy_hits_to->publish(*entry);  // atomic, as every put
            } catch (const CacheError& e) {
                warn("could not keep the " + link.label + " entry in " +
                     link.copy_hits_to->location() + ": " + e.what());
            }
        }
        return Found{std::move(*entry), link.label + " " + link.backend->location()};
    }
    return std::nullopt;
}

}  // namespace optiml::cache
