// The compile/repair loop with NVRTC for real (no GPU needed): an answer that does not compile
// goes back with the compiler's messages about its own lines only, and the repaired answer is
// accepted; at most three repairs; an endpoint failure ends the loop.
#include <gtest/gtest.h>

#include "driver/compile/nvrtc_compiler.h"
#include "driver/llm/repair.h"
#include "scripted_endpoint.h"

namespace optiml::llm {
namespace {

using namespace testing;

// twice<float2> fails inside the helper (line 2, outside the answer) and the float2 does not
// convert to y's float (in the answer).
const char* kBroken =
    "__global__ void scale(int n, const float* __restrict__ x, float* __restrict__ y) {\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) y[i] = twice(make_float2(x[i], 0.0f));\n"
    "}\n";

CompileCheck nvrtc(const std::string& text, const std::map<std::string, std::int64_t>& defines) {
    compile::CompileRequest request;
    request.source_text = text;
    request.source_name = "scale.cu";
    request.name_expression = "scale";
    request.defines = defines;
    request.arch = 90;
    const compile::CompileResult result = compile::compile_with_nvrtc(request);
    return {result.ok, result.log, request.source_name};
}

AuthoringRules scale_rules() {
    AuthoringRules rules;
    rules.original = kScaleSource;
    rules.kernel = "scale";
    return rules;
}

ChatRequest first_request() {
    ChatRequest request;
    request.prompt_id = "propose@1";
    request.messages.push_back({"user", "optimize scale"});
    return request;
}

TEST(Repair, ACompileErrorGoesBackWithTheKernelsMessagesOnlyAndTheRepairIsAccepted) {
    ScriptedEndpoint endpoint(ScriptedEndpoint::Script{answer(kBroken, kGridStrideChanges),
                                                       answer(kGridStride, kGridStrideChanges)});
    const Authored authored = author_kernel(endpoint, first_request(), scale_rules(), nvrtc);
    ASSERT_TRUE(authored.kernel) << authored.attempts.back().reason;
    ASSERT_EQ(authored.attempts.size(), 2u);
    EXPECT_EQ(authored.attempts[0].stage, "compile");
    EXPECT_EQ(authored.attempts[1].stage, "accepted");
    EXPECT_EQ(authored.usage.prompt_tokens, 200);

    ASSERT_EQ(endpoint.requests.size(), 2u);
    const ChatRequest& repair = endpoint.requests[1];
    ASSERT_EQ(repair.messages.size(), 3u);
    EXPECT_EQ(repair.prompt_id, "repair@1");
    const std::string& sent = repair.messages[2].content;
    // The answer's own line 5: the float2 that does not convert, with its echoed text.
    EXPECT_NE(sent.find("scale.cu(5): error"), std::string::npos) << sent;
    EXPECT_NE(sent.find("make_float2"), std::string::npos) << sent;
    // Nothing of the helper's line, which the compiler also complained about and echoed.
    EXPECT_EQ(sent.find("scale.cu(2)"), std::string::npos) << sent;
    EXPECT_EQ(sent.find("HELPER-TEXT"), std::string::npos) << sent;
    EXPECT_NE(sent.find("further messages about lines outside your kernel"), std::string::npos);
}

TEST(Repair, StopsAfterThreeRepairs) {
    ScriptedEndpoint endpoint(ScriptedEndpoint::Script{answer(kBroken, kGridStrideChanges)});
    const Authored authored = author_kernel(endpoint, first_request(), scale_rules(), nvrtc);
    EXPECT_FALSE(authored.kernel);
    EXPECT_EQ(endpoint.requests.size(), 4u);
    ASSERT_EQ(authored.attempts.size(), 4u);
    for (const Attempt& a : authored.attempts) EXPECT_EQ(a.stage, "compile");
    EXPECT_EQ(authored.attempts.back().number, 4);
}

TEST(Repair, AGuardrailRejectionGoesBackWithItsReason) {
    std::string changed = kGridStride;
    changed.replace(changed.find("const float*"), 12, "float*");
    ScriptedEndpoint endpoint(ScriptedEndpoint::Script{answer(changed, kGridStrideChanges),
                                                       answer(kGridStride, kGridStrideChanges)});
    const Authored authored = author_kernel(endpoint, first_request(), scale_rules(), nvrtc);
    ASSERT_TRUE(authored.kernel);
    EXPECT_EQ(authored.attempts[0].stage, "guardrail");
    EXPECT_NE(endpoint.requests[1].messages[2].content.find("signature changed"),
              std::string::npos);
}

TEST(Repair, AnEndpointFailureEndsTheLoop) {
    ScriptedEndpoint endpoint(ScriptedEndpoint::Script{answer(kBroken, kGridStrideChanges),
                                                       testing::Fails{"HTTP 429 after 3 retries"}});
    const Authored authored = author_kernel(endpoint, first_request(), scale_rules(), nvrtc);
    EXPECT_FALSE(authored.kernel);
    ASSERT_EQ(authored.attempts.size(), 2u);
    EXPECT_EQ(authored.attempts[1].stage, "endpoint");
    EXPECT_EQ(authored.attempts[1].reason, "HTTP 429 after 3 retries");
}

TEST(KernelMessages, KeepsTheNamedFilesLinesInTheRangeWithTheirContinuations) {
    const std::string log =
        "h.h(1): error: identifier \"secret\" is undefined\n"
        "  float secret_text = secret;\n"
        "          ^\n\n"
        "k.cu(4): error: identifier \"nope\" is undefined\n"
        "    int q = nope;\n"
        "            ^\n\n"
        "k.cu(40): warning: unused\n\n"
        "2 errors detected in the compilation of \"k.cu\".\n";
    int dropped = 0;
    const std::string kept = kernel_messages(log, "k.cu", 3, 10, &dropped);
    EXPECT_EQ(kept,
              "k.cu(4): error: identifier \"nope\" is undefined\n"
              "    int q = nope;\n"
              "            ^\n");
    EXPECT_EQ(dropped, 2);
}

}  // namespace
}  // namespace optiml::llm
