// Where a build looks for an entry, in order: the local cache, then each seed, then the remote,
// each a Backend. The first usable entry wins; a damaged, untrusted or unreachable one is
// reported and passed over, so a bad copy somewhere never stops a build that another place can
// serve.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache/backend.h"

namespace optiml::cache {

struct Found {
    Entry entry;
    std::string where;  // "cache <dir>", "seed <dir>", "remote <url>": which backend answered
};

class LookupChain {
  public:
    // `label` names the backend in messages ("cache", "seed", "remote"). An entry it answers
    // with is also published to `copy_hits_to` (the local cache, for a remote), when given.
    void add(std::unique_ptr<Backend> backend, std::string label, Backend* copy_hits_to = nullptr);

    // The first entry for `key`; each damaged entry met on the way goes to `warn`, one line.
    std::optional<Found> fetch(const std::string& key,
                               const std::function<void(const std::string&)>& warn) const;

  private:
    struct Link {
        std::unique_ptr<Backend> backend;
        std::string label;
        Backend* copy_hits_to;
    };
    std::vector<Link> links_;
};

}  // namespace optiml::cache
