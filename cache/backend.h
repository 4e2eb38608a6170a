// The seam for more than one place to find entries. The local Store (and a read-only seed
// cache) is one backend; the remote HTTP cache (Bazel remote-cache protocol, a later issue)
// will be another, so the driver can look up a chain: local, seed, remote.
#pragma once

#include <optional>
#include <string>

#include "cache/store.h"

namespace optiml::cache {

class Backend {
  public:
    virtual ~Backend() = default;
    // For messages: a folder or a URL.
    virtual std::string location() const = 0;
    virtual bool writable() const = 0;
    // nullopt when absent; DamagedEntryError when present but damaged.
    virtual std::optional<Entry> fetch(const std::string& key) = 0;
    // Stores the entry; false when one was already there. CacheError when not writable.
    virtual bool publish(const Entry& entry) = 0;
};

// A Store seen through the Backend interface.
class LocalBackend final : public Backend {
  public:
    explicit LocalBackend(Store store) : store_(std::move(store)) {}
    std::string location() const override { return store_.root().string(); }
    bool writable() const override { return !store_.read_only(); }
    std::optional<Entry> fetch(const std::string& key) override { return store_.get(key); }
    bool publish(const Entry& entry) override { return store_.insert(entry); }

  private:
    Store store_;
};

}  // namespace optiml::cache
