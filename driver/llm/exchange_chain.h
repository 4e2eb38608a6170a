// The endpoint a tuning talks to, assembled from its configuration: the token budget, in front
// of the exchange cache (local, then seeds), in front of the HTTP client (none under replay).
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "driver/llm/exchange_budget.h"
#include "driver/llm/llm_config.h"

namespace optiml::llm {

// nullptr when the configuration enables no LLM (no base URL and no replay): the search then
// runs without one. Throws LlmError when the configuration is unusable. `note` hears retries
// and damaged recorded exchanges, one line each.
std::unique_ptr<BudgetedChat> open_chat(const LlmConfig& config,
                                        const std::filesystem::path& cache_root,
                                        const std::vector<std::filesystem::path>& seeds,
                                        std::function<void(const std::string&)> note = {});

}  // namespace optiml::llm
