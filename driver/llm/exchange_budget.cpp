#include "driver/llm/exchange_budget.h"

namespace optiml::llm {

BudgetedChat::BudgetedChat(std::unique_ptr<ChatEndpoint> inner, long token_budget, Prices prices)
    : inner_(std::move(inner)), token_budget_(token_budget), prices_(prices) {}

ChatReply BudgetedChat::complete(const ChatRequest& request) {
    {
        const std::lock_guard lock(mutex_);
        if (token_budget_ > 0 && totals_.tokens() >= token_budget_)
            throw LlmError("the LLM token budget of this tuning is spent: " +
                           std::to_string(totals_.tokens()) + " of " +
                           std::to_string(token_budget_) + " tokens used by " +
                           std::to_string(totals_.exchanges) +
                           " exchanges; raise it with --llm-token-budget or "
                           "OPTIML_LLM_TOKEN_BUDGET (0: no limit)");
    }
    ChatReply reply = inner_->complete(request);
    ExchangeUsage record{request.prompt_id, reply.model, reply.usage, 0, reply.replayed};
    if (!reply.replayed) record.cost_usd = exchange_cost(prices_, reply.usage);
    const std::lock_guard lock(mutex_);
    ++totals_.exchanges;
    if (reply.replayed) ++totals_.replayed;
    totals_.prompt_tokens += reply.usage.prompt_tokens;
    totals_.completion_tokens += reply.usage.completion_tokens;
    totals_.cost_usd += record.cost_usd;
    exchanges_.push_back(std::move(record));
    return reply;
}

ExchangeTotals BudgetedChat::totals() const {
    const std::lock_guard lock(mutex_);
    return totals_;
}

std::vector<ExchangeUsage> BudgetedChat::exchanges() const {
    const std::lock_guard lock(mutex_);
    return exchanges_;
}

}  // namespace optiml::llm
