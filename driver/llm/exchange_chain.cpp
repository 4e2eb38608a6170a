#include "driver/llm/exchange_chain.h"

#include "cache/store.h"
#include "driver/llm/detail/cached_chat.h"
#include "driver/llm/detail/http_chat.h"

namespace optiml::llm {

std::unique_ptr<BudgetedChat> open_chat(const LlmConfig& config,
                                        const std::filesystem::path& cache_root,
                                        const std::vector<std::filesystem::path>& seeds,
                                        std::function<void(const std::string&)> note) {
    if (!config.enabled()) return nullptr;
    validate(config);
    std::unique_ptr<ChatEndpoint> live;
    if (!config.replay) live = std::make_unique<HttpChat>(config, note);
    auto cached = std::make_unique<CachedChat>(
        std::move(live), ExchangeStore(cache_root, seeds, note), config.model, config.prices);
    return std::make_unique<BudgetedChat>(std::move(cached), config.token_budget, config.prices);
}

std::unique_ptr<ChatEndpoint> make_chat_endpoint_from_environment() {
    const LlmConfig config = llm_config_from_environment();
    if (!config.enabled()) return nullptr;
    return open_chat(config, cache::default_cache_dir(), {});
}

}  // namespace optiml::llm
