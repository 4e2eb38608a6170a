// The HTTP client against a real server process on loopback: replies, usage, retries and the
// faults that must stop it.
#include "driver/llm/detail/http_chat.h"

#include <chrono>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/unit/cache/scratch.h"
#include "tests/unit/llm/llm_error_of.h"
#include "tests/unit/llm/loopback_server.h"

namespace optiml::llm {
namespace {

using nlohmann::json;
using testing::answer;
using testing::LoopbackServer;

constexpr const char* kKey = "sk-test-SECRET-1234567890";

LlmConfig config_for(const LoopbackServer& server) {
    LlmConfig config;
    config.base_url = server.base_url();
    config.model = "test-model";
    config.api_key = kKey;
    config.initial_backoff_s = 0.05;
    config.timeout_s = 10;
    return config;
}

ChatRequest question(const std::string& text = "tile this kernel") {
    ChatRequest request;
    request.messages = {{"system", "You optimize CUDA kernels."}, {"user", text}};
    request.temperature = 0.25;
    request.max_tokens = 512;
    request.prompt_id = "propose@1";
    return request;
}

// The client's waits between tries, recorded instead of spent (HttpChat's RetrySleep): backoff
// and Retry-After are asserted as values, whatever the machine's speed.
struct Waits {
    std::vector<double> seconds;
    RetrySleep recorder() {
        return [this](std::chrono::duration<double> wait) { seconds.push_back(wait.count()); };
    }
};

std::string failure_of(HttpChat& chat) {
    return testing::llm_error_of(chat, question());
}

class HttpChatTest : public ::testing::Test {
  protected:
    cache::testing::ScratchDir scratch_;
};

TEST_F(HttpChatTest, ReturnsTheAnswerWithItsUsageAndSendsTheOpenAiBody) {
    LoopbackServer server({{"responses",
                            {{{"content", "__global__ void k() {}"},
                              {"usage", {{"prompt_tokens", 120}, {"completion_tokens", 34}}}}}}},
                          scratch_.path());
    HttpChat chat(config_for(server));
    const ChatReply reply = chat.complete(question());
    EXPECT_EQ(reply.content, "__global__ void k() {}");
    EXPECT_EQ(reply.model, "test-model");
    EXPECT_EQ(reply.usage.prompt_tokens, 120);
    EXPECT_EQ(reply.usage.completion_tokens, 34);
    EXPECT_FALSE(reply.replayed);

    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0]["path"], "/v1/chat/completions");
    EXPECT_TRUE(requests[0]["authorization_present"].get<bool>());
    const json& body = requests[0]["body"];
    EXPECT_EQ(body["model"], "test-model");
    EXPECT_EQ(body["temperature"], 0.25);
    EXPECT_EQ(body["max_tokens"], 512);
    ASSERT_EQ(body["messages"].size(), 2u);
    EXPECT_EQ(body["messages"][1]["role"], "user");
    EXPECT_EQ(body["messages"][1]["content"], "tile this kernel");
}

TEST_F(HttpChatTest, SendsNoAuthorizationWithoutAKey) {
    LoopbackServer server({{"responses", {answer("ok")}}}, scratch_.path());
    LlmConfig config = config_for(server);
    config.api_key.clear();
    HttpChat chat(config);
    EXPECT_EQ(chat.complete(question()).content, "ok");
    EXPECT_FALSE(server.requests().at(0)["authorization_present"].get<bool>());
}

TEST_F(HttpChatTest, WaitsAsRetryAfterAsksOn429ThenSucceeds) {
    LoopbackServer server({{"responses",
                            {{{"status", 429},
                              {"headers", {{"Retry-After", "1"}}},
                              {"body", {{"error", {{"message", "rate limited"}}}}}},
                             answer("after the wait")}}},
                          scratch_.path());
    std::vector<std::string> notes;
    Waits waits;
    HttpChat chat(
        config_for(server), [&](const std::string& line) { notes.push_back(line); },
        waits.recorder());
    EXPECT_EQ(chat.complete(question()).content, "after the wait");
    EXPECT_EQ(waits.seconds, std::vector<double>{1.0});  // Retry-After: 1, not the 0.05 s backoff
    EXPECT_EQ(server.requests().size(), 2u);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("HTTP 429"), std::string::npos) << notes[0];
    EXPECT_NE(notes[0].find("retrying in 1 s"), std::string::npos) << notes[0];
}

TEST_F(HttpChatTest, StopsAtOnceWhenRetryAfterExceedsTheLongestWait) {
    LoopbackServer server(
        {{"responses", {{{"status", 429}, {"headers", {{"Retry-After", "3600"}}}}, answer("x")}}},
        scratch_.path());
    LlmConfig config = config_for(server);
    config.max_retry_wait_s = 5;
    Waits waits;
    HttpChat chat(config, {}, waits.recorder());
    const std::string message = failure_of(chat);
    EXPECT_TRUE(waits.seconds.empty());  // neither the 3600 s asked for nor the 5 s cap
    EXPECT_NE(message.find("retry after 3600 s"), std::string::npos) << message;
    EXPECT_NE(message.find("OPTIML_LLM_MAX_RETRY_WAIT"), std::string::npos) << message;
    EXPECT_EQ(server.requests().size(), 1u);
}

TEST_F(HttpChatTest, RetriesServerErrorsWithBackoffThenSucceeds) {
    LoopbackServer server({{"responses",
                            {{{"status", 500}},
                             {{"status", 503}, {"body", "upstream overloaded"}},
                             answer("third time")}}},
                          scratch_.path());
    Waits waits;
    HttpChat chat(config_for(server), {}, waits.recorder());
    EXPECT_EQ(chat.complete(question()).content, "third time");
    ASSERT_EQ(waits.seconds.size(), 2u);
    EXPECT_DOUBLE_EQ(waits.seconds[0], 0.05);  // the initial backoff,
    EXPECT_DOUBLE_EQ(waits.seconds[1], 0.1);   // then doubled
    EXPECT_EQ(server.requests().size(), 3u);
}

TEST_F(HttpChatTest, GivesUpAfterMaxTries) {
    LoopbackServer server({{"responses", {{{"status", 502}}}}, {"repeat_last", true}},
                          scratch_.path());
    LlmConfig config = config_for(server);
    config.max_tries = 3;
    HttpChat chat(config);
    const std::string message = failure_of(chat);
    EXPECT_NE(message.find("HTTP 502"), std::string::npos) << message;
    EXPECT_NE(message.find("gave up after 3 tries"), std::string::npos) << message;
    EXPECT_EQ(server.requests().size(), 3u);
}

TEST_F(HttpChatTest, AStallPastTheTimeoutFailsWithinTheBound) {
    LoopbackServer server(
        {{"responses", {{{"delay_s", 30}, {"content", "too late"}}}}, {"repeat_last", true}},
        scratch_.path());
    LlmConfig config = config_for(server);
    config.timeout_s = 0.5;
    config.max_tries = 2;
    // The bound: libcurl ends each try at the configured 0.5 s...
    EXPECT_EQ(curl_timeouts(config).total_ms, 500);
    Waits waits;
    HttpChat chat(config, {}, waits.recorder());
    const std::string message = failure_of(chat);
    // ...and did, for both tries: a try the server's answer (30 s on) ended would have succeeded.
    EXPECT_NE(message.find("imed out"), std::string::npos) << message;  // libcurl's words
    EXPECT_NE(message.find("gave up after 2 tries"), std::string::npos) << message;
    EXPECT_EQ(message.find("too late"), std::string::npos);
    EXPECT_EQ(waits.seconds, std::vector<double>{0.05});  // only the backoff between the tries
}

TEST_F(HttpChatTest, MalformedBodiesAreErrorsNeverOutput) {
    const std::vector<std::string> bodies = {
        "not json", R"({"error": {"message": "model overloaded"}})",
        R"({"object": "chat.completion", "choices": []})",
        R"({"choices": [{"message": {"role": "assistant", "content": null}}]})",
        R"({"choices": [{"message": {"role": "assistant", "content": "cut off)"};
    for (const std::string& body : bodies) {
        cache::testing::ScratchDir folder;
        LoopbackServer server({{"responses", {{{"raw", body}}, answer("should not be reached")}}},
                              folder.path());
        HttpChat chat(config_for(server));
        const std::string message = failure_of(chat);
        EXPECT_NE(message.find("LLM endpoint"), std::string::npos) << message;
        EXPECT_EQ(message.find("should not be reached"), std::string::npos);
        EXPECT_EQ(server.requests().size(), 1u) << body;  // not retried into the next answer
    }
}

TEST_F(HttpChatTest, Unauthorized401NamesTheVariableAndNeverTheKey) {
    // Servers echo the key they were given; the message must not.
    LoopbackServer server({{"responses",
                            {{{"status", 401},
                              {"body",
                               {{"error",
                                 {{"message", std::string("Incorrect API key provided: ") + kKey},
                                  {"code", "invalid_api_key"}}}}}}}}},
                          scratch_.path());
    HttpChat chat(config_for(server));
    const std::string message = failure_of(chat);
    EXPECT_NE(message.find("HTTP 401"), std::string::npos) << message;
    EXPECT_NE(message.find("OPTIML_LLM_API_KEY"), std::string::npos) << message;
    EXPECT_EQ(message.find(kKey), std::string::npos) << message;
    EXPECT_NE(message.find("<redacted>"), std::string::npos) << message;
    EXPECT_EQ(server.requests().size(), 1u);
}

TEST_F(HttpChatTest, AShortKeyIsRedactedFromTheServersWordsWithoutCuttingOthers) {
    // A local server's one-letter key: the echo goes, OptiML's own sentence and the URL stay.
    LoopbackServer server(
        {{"responses",
          {{{"status", 401},
            {"body", {{"error", {{"message", "Incorrect API key provided: a. Ask an admin"}}}}}}}}},
        scratch_.path());
    LlmConfig config = config_for(server);
    config.api_key = "a";
    HttpChat chat(config);
    const std::string message = failure_of(chat);
    EXPECT_NE(message.find("LLM endpoint " + server.base_url() + "/chat/completions refused"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("Incorrect API key provided: <redacted>. Ask an admin"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("set OPTIML_LLM_API_KEY to a valid API key for it"), std::string::npos)
        << message;
}

TEST_F(HttpChatTest, ExhaustedQuotaStopsWithoutRetrying) {
    LoopbackServer server({{"responses",
                            {{{"status", 429},
                              {"headers", {{"Retry-After", "1"}}},
                              {"body",
                               {{"error",
                                 {{"message", "You exceeded your current quota"},
                                  {"type", "insufficient_quota"},
                                  {"code", "insufficient_quota"}}}}}},
                             answer("never")}}},
                          scratch_.path());
    Waits waits;
    HttpChat chat(config_for(server), {}, waits.recorder());
    const std::string message = failure_of(chat);
    EXPECT_TRUE(waits.seconds.empty());  // did not wait for Retry-After
    EXPECT_NE(message.find("quota is exhausted"), std::string::npos) << message;
    EXPECT_EQ(server.requests().size(), 1u);
}

TEST_F(HttpChatTest, OtherClientErrorsStopWithTheServersReason) {
    LoopbackServer server(
        {{"responses",
          {{{"status", 400},
            {"body", {{"error", {{"message", "max_tokens is too large for this model"}}}}}},
           answer("never")}}},
        scratch_.path());
    HttpChat chat(config_for(server));
    const std::string message = failure_of(chat);
    EXPECT_NE(message.find("HTTP 400"), std::string::npos) << message;
    EXPECT_NE(message.find("max_tokens is too large"), std::string::npos) << message;
    EXPECT_EQ(server.requests().size(), 1u);
}

TEST_F(HttpChatTest, ConnectionRefusedIsRetriedThenReported) {
    std::string url;
    {
        LoopbackServer server({{"responses", {answer("x")}}}, scratch_.path());
        url = server.base_url();
    }  // stopped: nothing listens on that port any more
    LlmConfig config;
    config.base_url = url;
    config.model = "m";
    config.max_tries = 2;
    config.initial_backoff_s = 0.05;
    std::vector<std::string> notes;
    HttpChat chat(config, [&](const std::string& line) { notes.push_back(line); });
    const std::string message = failure_of(chat);
    EXPECT_NE(message.find("gave up after 2 tries"), std::string::npos) << message;
    EXPECT_EQ(notes.size(), 1u);
}

TEST(HttpChatConfig, RefusesAnUnusableConfiguration) {
    LlmConfig config;
    EXPECT_THROW(HttpChat{config}, LlmError);  // no base URL
    config.base_url = "127.0.0.1:8080/v1";
    config.model = "m";
    try {
        HttpChat chat(config);
        ADD_FAILURE() << "accepted a base URL without a scheme";
    } catch (const LlmError& e) {
        EXPECT_NE(std::string(e.what()).find("OPTIML_LLM_BASE_URL"), std::string::npos);
    }
    config.base_url = "http://127.0.0.1:8080/v1";
    config.model.clear();
    try {
        HttpChat chat(config);
        ADD_FAILURE() << "accepted an endpoint without a model";
    } catch (const LlmError& e) {
        EXPECT_NE(std::string(e.what()).find("OPTIML_LLM_MODEL"), std::string::npos);
    }
}

}  // namespace
}  // namespace optiml::llm
