// The proposal prompt in the Optimas layout: the kernel with the file's line numbers, the
// evidence with its ids, the guardrails and the answer format; templates are versioned and
// every placeholder is filled.
#include <gtest/gtest.h>

#include "driver/llm/prompt.h"
#include "driver/llm/prompt_kernel.h"
#include "scripted_endpoint.h"

namespace optiml::llm {
namespace {

KernelPrompt scale_prompt(const analysis::EvidenceReport& evidence) {
    KernelPrompt prompt;
    prompt.device = "NVIDIA H200";
    prompt.kernel = "scale";
    prompt.source_name = "scale.cu";
    prompt.source = testing::kScaleSource;
    prompt.parameters = {{"block_size", 256}};
    prompt.launch = "block (block_size, 1, 1), grid (ceil_div(n, block_size), 1, 1)";
    prompt.space = "- block_size: 128, 256, 512 (now 256)";
    prompt.evidence = &evidence;
    return prompt;
}

TEST(Prompt, ShowsTheKernelsOwnLinesWithTheFilesNumbers) {
    const auto evidence = testing::scale_evidence();
    const ChatRequest request = propose_request(scale_prompt(evidence));
    ASSERT_EQ(request.messages.size(), 1u);
    const std::string& text = request.messages[0].content;
    EXPECT_NE(text.find("   3 | __global__ void scale(int n,"), std::string::npos) << text;
    EXPECT_NE(text.find("   5 |     if (i < n) y[i] = twice(x[i]);"), std::string::npos);
    EXPECT_NE(text.find("   6 | }"), std::string::npos);
    EXPECT_EQ(text.find("HELPER-TEXT"), std::string::npos)
        << "lines outside the kernel are not part of the listing";
    EXPECT_NE(text.find("lines 3-6"), std::string::npos);
}

TEST(Prompt, CarriesTheEvidenceWithItsIds) {
    const auto evidence = testing::scale_evidence();
    const std::string text = propose_request(scale_prompt(evidence)).messages[0].content;
    for (const std::string& id : analysis::evidence_ids(evidence))
        EXPECT_NE(text.find(id), std::string::npos) << id;
    EXPECT_NE(text.find("long_scoreboard"), std::string::npos);
    EXPECT_NE(text.find("memory-bound"), std::string::npos);
    EXPECT_NE(text.find("block_size=256"), std::string::npos);
    EXPECT_NE(text.find("block_size: 128, 256, 512"), std::string::npos);
}

TEST(Prompt, StatesTheGuardrailsAndTheAnswerFormat) {
    const auto evidence = testing::scale_evidence();
    const ChatRequest request = propose_request(scale_prompt(evidence));
    const std::string& text = request.messages[0].content;
    for (const char* rule :
         {"Keep the kernel's name and signature", "Change only this kernel", "no host code",
          "#include", "#pragma once", "cites at least one evidence id", "```cuda", "\"changes\"",
          "\"evidence\"", "\"suggestions\""})
        EXPECT_NE(text.find(rule), std::string::npos) << rule;
    EXPECT_EQ(request.prompt_id, "propose@1");
    EXPECT_EQ(text.find("{{"), std::string::npos) << "an unfilled placeholder";
}

TEST(Prompt, RepairContinuesTheConversation) {
    const auto evidence = testing::scale_evidence();
    const ChatRequest first = propose_request(scale_prompt(evidence));
    const ChatRequest repair =
        repair_request(first, "my answer", "scale", "it does not compile", 2, 4);
    ASSERT_EQ(repair.messages.size(), 3u);
    EXPECT_EQ(repair.messages[1].role, "assistant");
    EXPECT_EQ(repair.messages[1].content, "my answer");
    EXPECT_NE(repair.messages[2].content.find("it does not compile"), std::string::npos);
    EXPECT_NE(repair.messages[2].content.find("attempt 2 of 4"), std::string::npos);
    EXPECT_EQ(repair.prompt_id, "repair@1");
}

TEST(Prompt, RenderRefusesMissingAndUnusedValues) {
    const PromptTemplate t{"t", 3, "a {{x}} b"};
    EXPECT_EQ(render(t, {{"x", "1"}}), "a 1 b");
    EXPECT_THROW(render(t, {}), LlmError);
    EXPECT_THROW(render(t, {{"x", "1"}, {"y", "2"}}), LlmError);
    EXPECT_EQ(t.id(), "t@3");
    EXPECT_THROW(prompt_template("nonexistent"), LlmError);
}

TEST(Prompt, NumbersLines) {
    EXPECT_EQ(numbered_lines("a\nb\nc\n", 2, 3), "   2 | b\n   3 | c\n");
    EXPECT_EQ(numbered_lines("a\nb", 2, 9), "   2 | b\n");
}

}  // namespace
}  // namespace optiml::llm
