// The assembled endpoint (open_chat): the exchange cache, replay without an endpoint, seeds, the
// token budget, and that the API key reaches no file the run writes.
#include "driver/llm/exchange_chain.h"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "driver/llm/detail/exchange_record.h"
#include "tests/unit/cache/scratch.h"
#include "tests/unit/llm/llm_error_of.h"
#include "tests/unit/llm/loopback_server.h"

namespace optiml::llm {
namespace {

using nlohmann::json;
using testing::answer;
using testing::LoopbackServer;

constexpr const char* kChainKey = "sk-test-NEVER-WRITTEN-0987654321";

ChatRequest chain_question(const std::string& text, const std::string& prompt_id = "propose@1") {
    ChatRequest request;
    request.messages = {{"system", "You optimize CUDA kernels."}, {"user", text}};
    request.prompt_id = prompt_id;
    return request;
}

class ExchangeChainTest : public ::testing::Test {
  protected:
    LlmConfig live(const LoopbackServer& server) const {
        LlmConfig config;
        config.base_url = server.base_url();
        config.model = "test-model";
        config.api_key = kChainKey;
        config.initial_backoff_s = 0.05;
        return config;
    }
    static LlmConfig replay_only() {
        LlmConfig config;
        config.model = "test-model";
        config.replay = true;
        return config;
    }
    std::filesystem::path cache_root() const { return scratch_.path() / "cache"; }
    std::filesystem::path server_dir(const std::string& name) const {
        std::filesystem::create_directories(scratch_.path() / name);
        return scratch_.path() / name;
    }

    cache::testing::ScratchDir scratch_;
};

TEST_F(ExchangeChainTest, NoEndpointAndNoReplayMeansNoLlm) {
    EXPECT_EQ(open_chat(LlmConfig{}, cache_root(), {}), nullptr);
}

TEST_F(ExchangeChainTest, ASecondAskIsAnsweredFromTheCache) {
    LoopbackServer server({{"responses", {answer("first"), answer("second")}}}, server_dir("s"));
    auto chat = open_chat(live(server), cache_root(), {});
    const ChatReply asked = chat->complete(chain_question("tile it"));
    const ChatReply again = chat->complete(chain_question("tile it"));
    EXPECT_EQ(asked.content, "first");
    EXPECT_FALSE(asked.replayed);
    EXPECT_EQ(again.content, "first");
    EXPECT_TRUE(again.replayed);
    EXPECT_EQ(again.usage.prompt_tokens, asked.usage.prompt_tokens);
    EXPECT_EQ(server.requests().size(), 1u);
    // A different prompt version is a different exchange.
    EXPECT_EQ(chat->complete(chain_question("tile it", "propose@2")).content, "second");
    EXPECT_EQ(server.requests().size(), 2u);
    const ExchangeTotals totals = chat->totals();
    EXPECT_EQ(totals.exchanges, 3);
    EXPECT_EQ(totals.replayed, 1);
}

TEST_F(ExchangeChainTest, ReplayWithTheServerStoppedReturnsTheRecordedReply) {
    ChatReply recorded;
    {
        LoopbackServer server({{"responses", {answer("__global__ void tiled() {}")}}},
                              server_dir("s"));
        recorded = open_chat(live(server), cache_root(), {})->complete(chain_question("tile it"));
    }
    auto chat = open_chat(replay_only(), cache_root(), {});
    const ChatReply replayed = chat->complete(chain_question("tile it"));
    EXPECT_TRUE(replayed.replayed);
    EXPECT_EQ(replayed.content, recorded.content);
    EXPECT_EQ(replayed.model, recorded.model);
    EXPECT_EQ(replayed.usage.completion_tokens, recorded.usage.completion_tokens);
}

TEST_F(ExchangeChainTest, ReplayNeverCallsAConfiguredEndpoint) {
    LoopbackServer server({{"responses", {answer("live")}}}, server_dir("s"));
    LlmConfig config = live(server);
    config.replay = true;
    auto chat = open_chat(config, cache_root(), {});
    const std::string message = testing::llm_error_of(*chat, chain_question("tile it"));
    EXPECT_NE(message.find("no recorded exchange"), std::string::npos) << message;
    EXPECT_TRUE(server.requests().empty());
}

TEST_F(ExchangeChainTest, AReplayMissSaysWhatIsMissingAndHowToRecordIt) {
    auto chat = open_chat(replay_only(), cache_root(), {});
    const std::string message =
        testing::llm_error_of(*chat, chain_question("never asked", "judge@3"));
    EXPECT_NE(message.find("'judge@3'"), std::string::npos) << message;
    EXPECT_NE(message.find("'test-model'"), std::string::npos) << message;
    EXPECT_NE(message.find((cache_root() / "llm").string()), std::string::npos) << message;
    EXPECT_NE(message.find("OPTIML_LLM_BASE_URL"), std::string::npos) << message;
}

TEST_F(ExchangeChainTest, TheKeyIgnoresTheEndpointButNotTheQuestion) {
    {
        LoopbackServer first({{"responses", {answer("from the first server")}}}, server_dir("a"));
        open_chat(live(first), cache_root(), {})->complete(chain_question("tile it"));
    }
    LoopbackServer second(
        {{"responses", {answer("from the second server")}}, {"repeat_last", true}},
        server_dir("b"));
    auto chat = open_chat(live(second), cache_root(), {});
    EXPECT_EQ(chat->complete(chain_question("tile it")).content, "from the first server");
    EXPECT_TRUE(second.requests().empty());
    ChatRequest warmer = chain_question("tile it");
    warmer.temperature = 0.7;
    EXPECT_EQ(chat->complete(warmer).content, "from the second server");
    ChatRequest other_model = chain_question("tile it");
    other_model.model = "other-model";
    EXPECT_EQ(chat->complete(other_model).content, "from the second server");
    ChatRequest shorter = chain_question("tile it");
    shorter.max_tokens = 100;
    EXPECT_EQ(chat->complete(shorter).content, "from the second server");
    EXPECT_EQ(second.requests().size(), 3u);
}

TEST_F(ExchangeChainTest, TheKeyCoversEveryField) {
    const ChatRequest base = chain_question("tile it");
    std::vector<ChatRequest> variants(6, base);
    variants[0].model = "m2";
    variants[1].messages[0].role = "user";
    variants[2].messages[1].content = "tile it!";
    variants[3].temperature = 1e-9;
    variants[4].max_tokens = 1;
    variants[5].prompt_id = "propose@2";
    std::set<std::string> keys{exchange_key(base)};
    for (const ChatRequest& variant : variants) keys.insert(exchange_key(variant));
    EXPECT_EQ(keys.size(), variants.size() + 1);
    EXPECT_EQ(exchange_key(base), exchange_key(chain_question("tile it")));
}

TEST_F(ExchangeChainTest, ASeedCacheCarriesExchanges) {
    {
        LoopbackServer server({{"responses", {answer("seeded answer")}}}, server_dir("s"));
        open_chat(live(server), cache_root(), {})->complete(chain_question("tile it"));
    }
    const auto seed = scratch_.path() / "seed";
    std::filesystem::create_directories(seed);
    std::filesystem::copy(cache_root() / "llm", seed / "llm",
                          std::filesystem::copy_options::recursive);
    const auto fresh_cache = scratch_.path() / "fresh";
    auto chat = open_chat(replay_only(), fresh_cache, {seed, scratch_.path() / "no-such-seed"});
    const ChatReply reply = chat->complete(chain_question("tile it"));
    EXPECT_EQ(reply.content, "seeded answer");
    EXPECT_TRUE(reply.replayed);
    EXPECT_FALSE(std::filesystem::exists(fresh_cache / "llm" / "entries"));  // nothing copied in
}

TEST_F(ExchangeChainTest, TheTokenBudgetStopsFurtherExchanges) {
    LoopbackServer server(
        {{"responses",
          {{{"content", "a"}, {"usage", {{"prompt_tokens", 10}, {"completion_tokens", 5}}}}}},
         {"repeat_last", true}},
        server_dir("s"));
    LlmConfig config = live(server);
    config.token_budget = 20;
    config.prices = {2.0, 4.0};  // $ per million tokens
    auto chat = open_chat(config, cache_root(), {});
    chat->complete(chain_question("one"));
    chat->complete(chain_question("two"));  // 15 of 20 used before it: allowed
    const std::string message = testing::llm_error_of(*chat, chain_question("three"));
    EXPECT_NE(message.find("token budget"), std::string::npos) << message;
    EXPECT_NE(message.find("30 of 20"), std::string::npos) << message;
    EXPECT_NE(message.find("OPTIML_LLM_TOKEN_BUDGET"), std::string::npos) << message;
    EXPECT_EQ(server.requests().size(), 2u);
    const ExchangeTotals totals = chat->totals();
    EXPECT_EQ(totals.exchanges, 2);
    EXPECT_EQ(totals.tokens(), 30);
    EXPECT_DOUBLE_EQ(totals.cost_usd, 2 * (10 * 2.0 + 5 * 4.0) / 1e6);
    const auto each = chat->exchanges();
    ASSERT_EQ(each.size(), 2u);
    EXPECT_EQ(each[0].prompt_id, "propose@1");
    EXPECT_EQ(each[0].usage.prompt_tokens, 10);
    EXPECT_DOUBLE_EQ(each[0].cost_usd, (10 * 2.0 + 5 * 4.0) / 1e6);
}

TEST_F(ExchangeChainTest, ReplayedTokensCountTowardTheBudgetAsTheyDidWhenRecorded) {
    {
        LoopbackServer server(
            {{"responses",
              {{{"content", "a"}, {"usage", {{"prompt_tokens", 10}, {"completion_tokens", 15}}}}}},
             {"repeat_last", true}},
            server_dir("s"));
        auto chat = open_chat(live(server), cache_root(), {});
        chat->complete(chain_question("one"));
        chat->complete(chain_question("two"));
    }
    LlmConfig config = replay_only();
    config.token_budget = 20;
    config.prices = {2.0, 4.0};
    auto chat = open_chat(config, cache_root(), {});
    chat->complete(chain_question("one"));
    EXPECT_NE(testing::llm_error_of(*chat, chain_question("two")).find("token budget"),
              std::string::npos);
    EXPECT_DOUBLE_EQ(chat->totals().cost_usd, 0.0);  // replay costs nothing
}

std::string file_text(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

TEST_F(ExchangeChainTest, TheApiKeyReachesNoFileTheRunWrites) {
    LoopbackServer server(
        {{"responses",
          {answer("ok"),
           {{"status", 500}, {"body", std::string("internal error for key ") + kChainKey}},
           answer("after retry"),
           {{"status", 401},
            {"body", {{"error", {{"message", std::string("bad key ") + kChainKey}}}}}}}}},
        server_dir("s"));
    std::vector<std::string> notes;
    auto chat = open_chat(live(server), cache_root(), {},
                          [&](const std::string& line) { notes.push_back(line); });
    chat->complete(chain_question("one"));
    chat->complete(chain_question("two"));
    const std::string refused = testing::llm_error_of(*chat, chain_question("three"));
    ASSERT_GE(server.requests().size(), 4u);
    EXPECT_TRUE(server.requests()[0]["authorization_present"].get<bool>());

    EXPECT_EQ(refused.find(kChainKey), std::string::npos) << refused;
    ASSERT_FALSE(notes.empty());
    for (const std::string& note : notes)
        EXPECT_EQ(note.find(kChainKey), std::string::npos) << note;
    int files = 0;
    for (const auto& item : std::filesystem::recursive_directory_iterator(scratch_.path())) {
        if (!item.is_regular_file() || item.path().filename() == "script.json") continue;
        ++files;
        EXPECT_EQ(file_text(item.path()).find(kChainKey), std::string::npos) << item.path();
    }
    EXPECT_GE(files, 3);  // two exchanges recorded, the request log
}

}  // namespace
}  // namespace optiml::llm
