#include "driver/cli/llm_options.h"

namespace optiml::cli {

void add_llm_options(CLI::App& command, llm::LlmOverrides& overrides) {
    command.add_option("--llm-base-url", overrides.base_url,
                       "OpenAI-compatible API root, e.g. http://127.0.0.1:8080/v1 "
                       "(default $OPTIML_LLM_BASE_URL; the key only from $OPTIML_LLM_API_KEY)");
    command.add_option("--llm-model", overrides.model, "Model name (default $OPTIML_LLM_MODEL)");
    command.add_flag("--llm-replay", overrides.replay,
                     "Answer LLM requests only from recorded exchanges, with no endpoint "
                     "(also OPTIML_LLM_REPLAY=1)");
    command
        .add_option("--llm-token-budget", overrides.token_budget,
                    "Tokens the LLM may use per tuning, 0 for no limit "
                    "(default $OPTIML_LLM_TOKEN_BUDGET, else 0)")
        ->check(CLI::NonNegativeNumber);
    command
        .add_option("--llm-timeout", overrides.timeout_s,
                    "Seconds one LLM request may take (default $OPTIML_LLM_TIMEOUT, else 300)")
        ->check(CLI::PositiveNumber);
    command
        .add_option("--llm-connect-timeout", overrides.connect_timeout_s,
                    "Seconds to connect (default $OPTIML_LLM_CONNECT_TIMEOUT, else 10)")
        ->check(CLI::PositiveNumber);
    command
        .add_option("--llm-max-tries", overrides.max_tries,
                    "Tries per LLM request (default $OPTIML_LLM_MAX_TRIES, else 4)")
        ->check(CLI::PositiveNumber);
}

}  // namespace optiml::cli
