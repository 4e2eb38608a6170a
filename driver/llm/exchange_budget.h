// The per-tuning account of exchanges: tokens and cost of each one, and the token budget. Once
// the tokens used reach the budget, further exchanges stop with an LlmError (an exchange under
// way when the budget is crossed completes). Replayed exchanges count their recorded tokens, so
// a replay makes the same decisions as the run it replays; only live ones cost money.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "driver/llm/chat.h"
#include "driver/llm/llm_config.h"

namespace optiml::llm {

struct ExchangeUsage {
    std::string prompt_id;
    std::string model;
    Usage usage;
    double cost_usd = 0;  // 0 for replayed exchanges and without prices
    bool replayed = false;
};

struct ExchangeTotals {
    int exchanges = 0;
    int replayed = 0;
    long prompt_tokens = 0;
    long completion_tokens = 0;
    double cost_usd = 0;
    long tokens() const { return prompt_tokens + completion_tokens; }
};

class BudgetedChat final : public ChatEndpoint {
  public:
    // token_budget 0: no limit. Thread-safe: exchanges may run concurrently.
    BudgetedChat(std::unique_ptr<ChatEndpoint> inner, long token_budget, Prices prices = {});

    ChatReply complete(const ChatRequest& request) override;

    ExchangeTotals totals() const;
    std::vector<ExchangeUsage> exchanges() const;  // in the order they finished

  private:
    std::unique_ptr<ChatEndpoint> inner_;
    long token_budget_;
    Prices prices_;
    mutable std::mutex mutex_;
    std::vector<ExchangeUsage> exchanges_;
    ExchangeTotals totals_;
};

}  // namespace optiml::llm
