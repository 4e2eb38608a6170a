// PLACEHOLDER, to be dropped at merge: the branch `llm-client` defines the real
// make_chat_endpoint_from_environment() (libcurl client, exchange cache, replay). Until then no
// endpoint is ever configured, so the pipeline behaves as without an LLM.
#include "driver/llm/llm_config.h"

namespace optiml::llm {

std::unique_ptr<ChatEndpoint> make_chat_endpoint_from_environment() {
    return nullptr;
}

}  // namespace optiml::llm
