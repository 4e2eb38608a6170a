// How the LLM layer reaches its endpoint: base URL, model, key, timeouts, retries, the token
// budget and prices, and replay. Read from the environment (OPTIML_LLM_*), then overridden by
// `optiml tune`/`build` flags (which CMake's optiml_optimize_kernel() passes). docs/llm.md lists
// every setting with its default. The API key comes from the environment only, never a flag or a
// CMake argument (those land in build files and process lists), and goes only into the
// Authorization header.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "driver/llm/chat.h"

namespace optiml::llm {

struct Prices {
    // US dollars per million tokens; 0: no cost is computed.
    double prompt_per_mtok = 0;
    double completion_per_mtok = 0;
    bool configured() const { return prompt_per_mtok > 0 || completion_per_mtok > 0; }
};

// The cost of one exchange's tokens under `prices` (0 when none are configured).
double exchange_cost(const Prices& prices, const Usage& usage);

struct LlmConfig {
    std::string base_url;  // "http://127.0.0.1:8080/v1"; empty: no endpoint
    std::string model;     // fills a request whose model is empty
    std::string api_key;   // empty: no Authorization header (local servers)
    double connect_timeout_s = 10;
    double timeout_s = 300;        // one try, connect to last byte
    int max_tries = 4;             // the first try plus up to three retries
    double initial_backoff_s = 1;  // doubles after every failed try
    double max_retry_wait_s = 60;  // a longer Retry-After stops at once
    long token_budget = 0;         // prompt + completion tokens per tuning; 0: no limit
    Prices prices;
    bool replay = false;  // answer only from recorded exchanges, no endpoint

    // Whether the LLM layer takes part at all: an endpoint is configured, or replay is on.
    bool enabled() const { return replay || !base_url.empty(); }
};

// The OPTIML_LLM_* variables. An empty variable counts as unset. Throws LlmError naming the
// variable, its value and what is expected (never for OPTIML_LLM_API_KEY, whose value is not
// shown).
LlmConfig llm_config_from_environment();

// Settings given on the command line; each one set replaces the environment's.
struct LlmOverrides {
    std::optional<std::string> base_url;
    std::optional<std::string> model;
    std::optional<double> connect_timeout_s;
    std::optional<double> timeout_s;
    std::optional<int> max_tries;
    std::optional<long> token_budget;
    bool replay = false;  // --llm-replay turns replay on; it never turns it off
};

LlmConfig apply_overrides(LlmConfig config, const LlmOverrides& overrides);

// The flags as a build manifest records them: only those that were given (an absent one leaves
// the environment's setting), and back.
nlohmann::json overrides_to_json(const LlmOverrides& overrides);
LlmOverrides overrides_from_json(const nlohmann::json& json);

// Checks values that the environment and flags may both have set; throws LlmError naming the
// setting (e.g. a base URL that is not http:// or https://).
void validate(const LlmConfig& config);

// The environment's OPTIML_LLM_* with the flags given applied, validated: what a command runs
// with. Throws LlmError naming the variable or flag at fault.
LlmConfig resolve_config(const LlmOverrides& overrides);

// The endpoint the environment alone configures: open_chat() (exchange_chain.h, where it is
// defined) of llm_config_from_environment(), the default cache directory and no seeds. Null
// without a base URL or replay. A tuning uses open_chat() with TuneRequest::llm instead, which
// also honours the command line's flags, --cache-dir and the seeds.
std::unique_ptr<ChatEndpoint> make_chat_endpoint_from_environment();

}  // namespace optiml::llm
