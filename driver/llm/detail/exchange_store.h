// Where recorded exchanges live: <cache root>/llm, a cache::Store of the usual layout (atomic
// writes, digests checked on read), then <seed>/llm of each seed cache, read-only. An entry's
// manifest holds the request, the reply, its usage and cost; docs/llm.md shows one.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cache/lookup_chain.h"
#include "driver/llm/chat.h"

namespace optiml::llm {

// The exchanges folder of a cache root or a seed cache.
std::filesystem::path exchange_dir(const std::filesystem::path& cache_root);

class ExchangeStore {
  public:
    // Seeds without an llm/ folder are skipped. `warn` hears of damaged entries (passed over).
    ExchangeStore(const std::filesystem::path& cache_root,
                  const std::vector<std::filesystem::path>& seeds,
                  std::function<void(const std::string&)> warn = {});

    // The recorded reply for `key`, or nullopt.
    std::optional<ChatReply> find(const std::string& key) const;
    // Records the exchange in the local cache. `cost_usd` is stored when given. Throws
    // LlmError when it cannot be written (a replay of this run would then miss it).
    void record(const std::string& key, const ChatRequest& request, const ChatReply& reply,
                std::optional<double> cost_usd);

    // For messages: the local folder and the seeds' folders that are searched.
    std::string locations() const;

  private:
    std::filesystem::path local_;
    std::vector<std::filesystem::path> searched_;
    cache::LookupChain chain_;
    std::function<void(const std::string&)> warn_;
};

}  // namespace optiml::llm
