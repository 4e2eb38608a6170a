// The exchange cache in front of an endpoint: every request is answered from its recorded
// exchange when there is one (free, deterministic, `replayed` set), else by the live endpoint,
// whose reply is then recorded. Without a live endpoint (--llm-replay, OPTIML_LLM_REPLAY=1) a
// request that was never recorded is an LlmError saying so. The key is exchange_key() of the
// request with its model filled in (exchange_record.h): never the URL or the API key.
#pragma once

#include <memory>
#include <string>

#include "driver/llm/chat.h"
#include "driver/llm/detail/exchange_store.h"
#include "driver/llm/llm_config.h"

namespace optiml::llm {

class CachedChat final : public ChatEndpoint {
  public:
    // `live` may be null (replay only). `default_model` fills requests without a model, before
    // the key is computed, so a request keys the same whether its model came from it or not.
    CachedChat(std::unique_ptr<ChatEndpoint> live, ExchangeStore store, std::string default_model,
               Prices prices = {});

    ChatReply complete(const ChatRequest& request) override;

  private:
    std::unique_ptr<ChatEndpoint> live_;
    ExchangeStore store_;
    std::string default_model_;
    Prices prices_;
};

}  // namespace optiml::llm
