#include "driver/llm/llm_config.h"

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace optiml::llm {
namespace {

std::optional<std::string> environment(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
}

// The whole text as a T of at least `minimum`, or an LlmError saying what was expected.
template <typename T>
T value_from(const char* name, const std::string& text, T minimum, const char* expected) {
    T value{};
    const char* last = text.data() + text.size();
    const auto [end, error] = std::from_chars(text.data(), last, value);
    if (error != std::errc() || end != last || !(value >= minimum))
        throw LlmError(std::string(name) + "='" + text + "' is not " + expected +
                       "; set it to one (see docs/llm.md)");
    return value;
}

double seconds_from(const char* name, const std::string& text) {
    const double seconds = value_from(name, text, 0.0, "a positive number of seconds");
    if (seconds <= 0)
        throw LlmError(std::string(name) + "='" + text + "' is not a positive number of seconds");
    return seconds;
}

double price_from(const char* name, const std::string& text) {
    return value_from(name, text, 0.0, "a price in US dollars per million tokens");
}

bool flag_from(const char* name, const std::string& text) {
    if (text == "1" || text == "true" || text == "on" || text == "yes") return true;
    if (text == "0" || text == "false" || text == "off" || text == "no") return false;
    throw LlmError(std::string(name) + "='" + text + "' is not a switch; set it to 1 or 0");
}

}  // namespace

double exchange_cost(const Prices& prices, const Usage& usage) {
    return (static_cast<double>(usage.prompt_tokens) * prices.prompt_per_mtok +
            static_cast<double>(usage.completion_tokens) * prices.completion_per_mtok) /
           1e6;
}

LlmConfig llm_config_from_environment() {
    LlmConfig config;
    if (auto value = environment("OPTIML_LLM_BASE_URL")) config.base_url = *value;
    if (auto value = environment("OPTIML_LLM_MODEL")) config.model = *value;
    if (auto value = environment("OPTIML_LLM_API_KEY")) config.api_key = *value;
    if (auto value = environment("OPTIML_LLM_CONNECT_TIMEOUT"))
        config.connect_timeout_s = seconds_from("OPTIML_LLM_CONNECT_TIMEOUT", *value);
    if (auto value = environment("OPTIML_LLM_TIMEOUT"))
        config.timeout_s = seconds_from("OPTIML_LLM_TIMEOUT", *value);
    if (auto value = environment("OPTIML_LLM_MAX_TRIES"))
        config.max_tries =
            value_from("OPTIML_LLM_MAX_TRIES", *value, 1, "a whole number of at least 1");
    if (auto value = environment("OPTIML_LLM_MAX_RETRY_WAIT"))
        config.max_retry_wait_s =
            value_from("OPTIML_LLM_MAX_RETRY_WAIT", *value, 0.0, "a number of seconds");
    if (auto value = environment("OPTIML_LLM_TOKEN_BUDGET"))
        config.token_budget = value_from("OPTIML_LLM_TOKEN_BUDGET", *value, 0L,
                                         "a whole number of tokens (0: no limit)");
    if (auto value = environment("OPTIML_LLM_PROMPT_PRICE"))
        config.prices.prompt_per_mtok = price_from("OPTIML_LLM_PROMPT_PRICE", *value);
    if (auto value = environment("OPTIML_LLM_COMPLETION_PRICE"))
        config.prices.completion_per_mtok = price_from("OPTIML_LLM_COMPLETION_PRICE", *value);
    if (auto value = environment("OPTIML_LLM_REPLAY"))
        config.replay = flag_from("OPTIML_LLM_REPLAY", *value);
    return config;
}

LlmConfig apply_overrides(LlmConfig config, const LlmOverrides& overrides) {
    if (overrides.base_url) config.base_url = *overrides.base_url;
    if (overrides.model) config.model = *overrides.model;
    if (overrides.connect_timeout_s) config.connect_timeout_s = *overrides.connect_timeout_s;
    if (overrides.timeout_s) config.timeout_s = *overrides.timeout_s;
    if (overrides.max_tries) config.max_tries = *overrides.max_tries;
    if (overrides.token_budget) config.token_budget = *overrides.token_budget;
    if (overrides.replay) config.replay = true;
    return config;
}

void validate(const LlmConfig& config) {
    const std::string_view url = config.base_url;
    if (!url.empty() && !url.starts_with("http://") && !url.starts_with("https://"))
        throw LlmError("LLM base URL '" + config.base_url +
                       "' is not an http:// or https:// URL; set OPTIML_LLM_BASE_URL (or "
                       "--llm-base-url) to the API root, e.g. http://127.0.0.1:8080/v1");
    if (!config.base_url.empty() && config.model.empty() && !config.replay)
        throw LlmError("an LLM endpoint is configured (" + config.base_url +
                       ") but no model; set OPTIML_LLM_MODEL (or --llm-model)");
    if (config.max_tries < 1) throw LlmError("--llm-max-tries must be at least 1");
    if (!(config.timeout_s > 0) || !(config.connect_timeout_s > 0))
        throw LlmError("LLM timeouts must be positive numbers of seconds");
    if (config.token_budget < 0) throw LlmError("--llm-token-budget must be 0 (no limit) or more");
}

LlmConfig resolve_config(const LlmOverrides& overrides) {
    LlmConfig config = apply_overrides(llm_config_from_environment(), overrides);
    validate(config);
    return config;
}

nlohmann::json overrides_to_json(const LlmOverrides& overrides) {
    nlohmann::json json = nlohmann::json::object();
    if (overrides.base_url) json["base_url"] = *overrides.base_url;
    if (overrides.model) json["model"] = *overrides.model;
    if (overrides.connect_timeout_s) json["connect_timeout_s"] = *overrides.connect_timeout_s;
    if (overrides.timeout_s) json["timeout_s"] = *overrides.timeout_s;
    if (overrides.max_tries) json["max_tries"] = *overrides.max_tries;
    if (overrides.token_budget) json["token_budget"] = *overrides.token_budget;
    if (overrides.replay) json["replay"] = true;
    return json;
}

namespace {

template <typename T>
void read_override(const nlohmann::json& json, const char* name, std::optional<T>& value) {
    if (json.contains(name)) value = json.at(name).get<T>();
}

}  // namespace

LlmOverrides overrides_from_json(const nlohmann::json& json) {
    LlmOverrides overrides;
    read_override(json, "base_url", overrides.base_url);
    read_override(json, "model", overrides.model);
    read_override(json, "connect_timeout_s", overrides.connect_timeout_s);
    read_override(json, "timeout_s", overrides.timeout_s);
    read_override(json, "max_tries", overrides.max_tries);
    read_override(json, "token_budget", overrides.token_budget);
    overrides.replay = json.value("replay", false);
    return overrides;
}

}  // namespace optiml::llm
