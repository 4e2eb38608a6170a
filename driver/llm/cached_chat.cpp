#include "driver/llm/detail/cached_chat.h"

#include "driver/llm/detail/exchange_record.h"

namespace optiml::llm {

CachedChat::CachedChat(std::unique_ptr<ChatEndpoint> live, ExchangeStore store,
                       std::string default_model, Prices prices)
    : live_(std::move(live)),
      store_(std::move(store)),
      default_model_(std::move(default_model)),
      prices_(prices) {}

ChatReply CachedChat::complete(const ChatRequest& request) {
    ChatRequest keyed = request;
    if (keyed.model.empty()) keyed.model = default_model_;
    const std::string key = exchange_key(keyed);
    if (std::optional<ChatReply> recorded = store_.find(key)) {
        recorded->replayed = true;
        return *recorded;
    }
    if (!live_)
        throw LlmError("LLM replay: no recorded exchange for prompt '" + keyed.prompt_id +
                       "' with model '" + keyed.model + "' (exchange " + key + ") in " +
                       store_.locations() +
                       "; replay (--llm-replay, OPTIML_LLM_REPLAY=1) answers only from recorded "
                       "exchanges: run once with an endpoint (OPTIML_LLM_BASE_URL) to record it, "
                       "or check that the model, prompts and seeds are those of the recording");
    ChatReply reply = live_->complete(keyed);
    reply.replayed = false;
    std::optional<double> cost;
    if (prices_.configured()) cost = exchange_cost(prices_, reply.usage);
    store_.record(key, keyed, reply, cost);
    return reply;
}

}  // namespace optiml::llm
