// Synthesis against the scripted server: routing, drafts, merge, and a repair driven by a real
// NVRTC compile error (tune::synth_problem, no GPU needed).
#include "driver/llm/synthesis.h"

#include <fstream>

#include <gtest/gtest.h>

#include "driver/llm/exchange_chain.h"
#include "driver/tune/detail/synth_check.h"
#include "tests/unit/cache/scratch.h"
#include "tests/unit/llm/loopback_server.h"

namespace optiml::llm {
namespace {

using nlohmann::json;
using testing::LoopbackServer;

const char* const kGoodKernel = R"(#ifndef block_size_x
#define block_size_x 256
#endif
extern "C" __global__ void scale(int n, float* x) {
    int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}
)";

const json kSpec = json::parse(R"json({
  "name": "whatever", "source": "elsewhere.cu", "kernel": "scale",
  "arguments": [
    {"name": "n", "type": "int32", "value": 4096},
    {"name": "x", "type": "float32", "pointer": true, "count": "n", "role": "inout",
     "fill": {"kind": "uniform", "min": -1, "max": 1, "seed": 1}}],
  "launch": {"block": ["block_size_x"], "grid": ["ceil_div(n, block_size_x)"]},
  "parameters": [{"name": "block_size_x", "values": [128, 256], "default": 256}],
  "check": {"rtol": 1e-5, "atol": 1e-6}
})json");

std::string answer_with(const std::string& kernel) {
    return "Here it is.\n```cuda\n" + kernel + "```\nAnd the spec:\n```json\n" + kSpec.dump(2) +
           "\n```\n";
}

json scripted(const std::string& match, const std::string& content) {
    return {{"match", match}, {"content", content}};
}

class SynthesisTest : public ::testing::Test {
  protected:
    std::unique_ptr<BudgetedChat> chat_for(const LoopbackServer& server) const {
        LlmConfig config;
        config.base_url = server.base_url();
        config.model = "primary";
        return open_chat(config, scratch_.path() / "cache", {});
    }
    SynthRequest request() const {
        SynthRequest out;
        out.request = "double every element of x";
        out.reference_name = "scale_ref.cpp";
        out.reference = "void scale(int n, float* x) { for (int i = 0; i < n; ++i) x[i] *= 2; }";
        out.kernel_name = "scale";
        out.experts = {"expert-a", "expert-b"};
        out.primary = "primary";
        return out;
    }
    SynthCheck nvrtc_check() const {
        return [this](const std::string& kernel, const json& spec) {
            return tune::synth_problem(out(), "scale", kernel, spec, 90);
        };
    }
    std::filesystem::path out() const { return scratch_.path() / "out"; }
    std::filesystem::path server_dir() const {
        std::filesystem::create_directories(scratch_.path() / "server");
        return scratch_.path() / "server";
    }

    cache::testing::ScratchDir scratch_;
};

TEST_F(SynthesisTest, RoutesDraftsMergesAndRepairsACompileError) {
    LoopbackServer server(
        {{"responses",
          {scripted("Which of these models", "```json\n{\"experts\": [\"expert-b\"]}\n```"),
           scripted("Write the kernel", std::string("```cuda\n") + kGoodKernel + "```"),
           scripted("Merge the best ideas",
                    answer_with("extern \"C\" __global__ void scale(int n, float* x) { x[0] = "
                                "undeclared_name; }\n")),
           scripted("has a problem", answer_with(kGoodKernel))}}},
        server_dir());
    auto chat = chat_for(server);
    std::vector<std::string> progress;
    const SynthResult result =
        synthesize(*chat, request(), nvrtc_check(),
                   [&](const std::string& line) { progress.push_back(line); });
    EXPECT_TRUE(result.accepted) << result.problem;
    EXPECT_EQ(result.repairs, 1);
    EXPECT_EQ(result.routed, std::vector<std::string>{"expert-b"});
    ASSERT_EQ(result.drafts.size(), 1u);
    EXPECT_EQ(result.drafts[0].kernel, kGoodKernel);
    EXPECT_EQ(result.kernel, kGoodKernel);

    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 4u);
    EXPECT_EQ(requests[0]["body"]["model"], "primary");   // the router
    EXPECT_EQ(requests[1]["body"]["model"], "expert-b");  // the one expert routed to
    const std::string merge = requests[2]["body"]["messages"][1]["content"];
    EXPECT_NE(merge.find("### expert-b"), std::string::npos);
    const json& repair = requests[3]["body"]["messages"];
    const std::string complaint = repair.back()["content"];
    EXPECT_NE(complaint.find("undeclared_name"), std::string::npos) << complaint;  // NVRTC's log
    EXPECT_EQ(repair[2]["role"], "assistant");  // the conversation goes on

    const tune::SynthFiles files =
        tune::write_synth_files(out(), "scale", result.kernel, result.spec);
    const json written = json::parse(std::ifstream(files.spec));
    EXPECT_EQ(written["source"], "scale.cu");
    EXPECT_EQ(written["name"], "scale");
}

TEST_F(SynthesisTest, AnUnusableRouterAnswerAsksEveryExpert) {
    LoopbackServer server(
        {{"responses",
          {scripted("Which of these models", "I would pick the best one."),
           scripted("Write the kernel", "no code, sorry"),
           scripted("Write the kernel", std::string("```cuda\n") + kGoodKernel + "```"),
           scripted("Merge the best ideas", answer_with(kGoodKernel))}}},
        server_dir());
    auto chat = chat_for(server);
    const SynthResult result = synthesize(*chat, request(), nvrtc_check());
    EXPECT_TRUE(result.accepted) << result.problem;
    EXPECT_EQ(result.routed, (std::vector<std::string>{"expert-a", "expert-b"}));
    EXPECT_FALSE(result.route_note.empty());
    ASSERT_EQ(result.drafts.size(), 2u);
    EXPECT_TRUE(result.drafts[0].kernel.empty());
    EXPECT_NE(result.drafts[0].problem.find("no ```cuda block"), std::string::npos);
    EXPECT_EQ(result.repairs, 0);
}

TEST_F(SynthesisTest, StopsAfterTheRepairsWithTheLastProblem) {
    const std::string with_include = "#include \"secrets.h\"\n" + std::string(kGoodKernel);
    LoopbackServer server(
        {{"responses",
          {scripted("Write the kernel", std::string("```cuda\n") + kGoodKernel + "```"),
           scripted("Merge the best ideas", answer_with(with_include)),
           scripted("has a problem", answer_with(with_include))}},
         {"repeat_last", true}},
        server_dir());
    auto chat = chat_for(server);
    SynthRequest asked = request();
    asked.experts = {"expert-a"};  // one expert: no routing
    asked.max_repairs = 2;
    const SynthResult result = synthesize(*chat, asked, nvrtc_check());
    EXPECT_FALSE(result.accepted);
    EXPECT_EQ(result.repairs, 2);
    EXPECT_NE(result.problem.find("#include"), std::string::npos) << result.problem;
    EXPECT_EQ(server.requests().size(), 4u);  // draft, merge, two repairs
}

}  // namespace
}  // namespace optiml::llm
