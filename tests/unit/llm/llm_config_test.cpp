// Configuration from OPTIML_LLM_* and from flags.
#include "driver/llm/llm_config.h"

#include <cstdlib>

#include <gtest/gtest.h>

namespace optiml::llm {
namespace {

const char* const kVariables[] = {
    "OPTIML_LLM_BASE_URL",     "OPTIML_LLM_MODEL",           "OPTIML_LLM_API_KEY",
    "OPTIML_LLM_TIMEOUT",      "OPTIML_LLM_CONNECT_TIMEOUT", "OPTIML_LLM_MAX_TRIES",
    "OPTIML_LLM_TOKEN_BUDGET", "OPTIML_LLM_PROMPT_PRICE",    "OPTIML_LLM_COMPLETION_PRICE",
    "OPTIML_LLM_REPLAY",       "OPTIML_LLM_MAX_RETRY_WAIT"};

class LlmConfigTest : public ::testing::Test {
  protected:
    void SetUp() override {
        for (const char* name : kVariables) unsetenv(name);
    }
    void TearDown() override { SetUp(); }
};

std::string error_of(void (*action)()) {
    try {
        action();
    } catch (const LlmError& e) {
        return e.what();
    }
    return {};
}

TEST_F(LlmConfigTest, NothingSetMeansNoLlm) {
    const LlmConfig config = llm_config_from_environment();
    EXPECT_FALSE(config.enabled());
    EXPECT_EQ(config.max_tries, 4);
    EXPECT_DOUBLE_EQ(config.timeout_s, 300);
    EXPECT_DOUBLE_EQ(config.connect_timeout_s, 10);
    EXPECT_EQ(config.token_budget, 0);
}

TEST_F(LlmConfigTest, ReadsEveryVariable) {
    setenv("OPTIML_LLM_BASE_URL", "http://127.0.0.1:8080/v1", 1);
    setenv("OPTIML_LLM_MODEL", "qwen2.5-coder", 1);
    setenv("OPTIML_LLM_API_KEY", "sk-abc", 1);
    setenv("OPTIML_LLM_TIMEOUT", "45.5", 1);
    setenv("OPTIML_LLM_CONNECT_TIMEOUT", "3", 1);
    setenv("OPTIML_LLM_MAX_TRIES", "2", 1);
    setenv("OPTIML_LLM_TOKEN_BUDGET", "100000", 1);
    setenv("OPTIML_LLM_PROMPT_PRICE", "2.5", 1);
    setenv("OPTIML_LLM_COMPLETION_PRICE", "10", 1);
    setenv("OPTIML_LLM_MAX_RETRY_WAIT", "12", 1);
    const LlmConfig config = llm_config_from_environment();
    EXPECT_TRUE(config.enabled());
    EXPECT_EQ(config.base_url, "http://127.0.0.1:8080/v1");
    EXPECT_EQ(config.model, "qwen2.5-coder");
    EXPECT_EQ(config.api_key, "sk-abc");
    EXPECT_DOUBLE_EQ(config.timeout_s, 45.5);
    EXPECT_DOUBLE_EQ(config.connect_timeout_s, 3);
    EXPECT_EQ(config.max_tries, 2);
    EXPECT_EQ(config.token_budget, 100000);
    EXPECT_DOUBLE_EQ(config.max_retry_wait_s, 12);
    EXPECT_DOUBLE_EQ(exchange_cost(config.prices, {1000, 100}), (1000 * 2.5 + 100 * 10) / 1e6);
    EXPECT_FALSE(config.replay);
    EXPECT_NO_THROW(validate(config));
}

TEST_F(LlmConfigTest, BadValuesNameTheVariable) {
    setenv("OPTIML_LLM_MAX_TRIES", "three", 1);
    const std::string tries = error_of([] { llm_config_from_environment(); });
    EXPECT_NE(tries.find("OPTIML_LLM_MAX_TRIES='three'"), std::string::npos) << tries;
    unsetenv("OPTIML_LLM_MAX_TRIES");
    setenv("OPTIML_LLM_TIMEOUT", "-1", 1);
    EXPECT_NE(error_of([] { llm_config_from_environment(); }).find("OPTIML_LLM_TIMEOUT"),
              std::string::npos);
    unsetenv("OPTIML_LLM_TIMEOUT");
    setenv("OPTIML_LLM_REPLAY", "maybe", 1);
    EXPECT_NE(error_of([] { llm_config_from_environment(); }).find("OPTIML_LLM_REPLAY"),
              std::string::npos);
}

TEST_F(LlmConfigTest, ReplayAloneEnablesTheLayer) {
    setenv("OPTIML_LLM_REPLAY", "1", 1);
    const LlmConfig config = llm_config_from_environment();
    EXPECT_TRUE(config.replay);
    EXPECT_TRUE(config.enabled());
    EXPECT_NO_THROW(validate(config));
}

TEST_F(LlmConfigTest, FlagsOverrideTheEnvironment) {
    setenv("OPTIML_LLM_BASE_URL", "http://env:1/v1", 1);
    setenv("OPTIML_LLM_MODEL", "env-model", 1);
    setenv("OPTIML_LLM_TOKEN_BUDGET", "10", 1);
    LlmOverrides flags;
    flags.base_url = "http://flag:2/v1";
    flags.token_budget = 0;
    flags.replay = true;
    const LlmConfig config = apply_overrides(llm_config_from_environment(), flags);
    EXPECT_EQ(config.base_url, "http://flag:2/v1");
    EXPECT_EQ(config.model, "env-model");  // not given on the command line
    EXPECT_EQ(config.token_budget, 0);
    EXPECT_TRUE(config.replay);
}

}  // namespace
}  // namespace optiml::llm
