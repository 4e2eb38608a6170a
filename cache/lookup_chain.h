// Where a build looks for an entry, in order: the local cache, then each seed (later a remote),
// each a Backend. The first usable entry wins; a damaged one is reported and passed over, so a
// bad copy somewhere never stops a build that another place can serve.
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
    std::string where;  // "cache <dir>" or "seed <dir>": which backend answered
};

class LookupChain {
  public:
    // `label` names the backend in messages ("cache", "seed").
    void add(std::unique_ptr<Backend> backend, std::string label);

    // The first entry for `key`; each damaged entry met on the way goes to `warn`, one line.
    std::optional<Found> fetch(const std::string& key,
                               const std::function<void(const std::string&)>& warn) const;

  private:
    struct Link {
        std::unique_ptr<Backend> backend;
        std::string label;
    };
    std::vector<Link> links_;
};

}  // namespace optiml::cache
