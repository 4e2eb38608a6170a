// Answers parsed and held to the guardrails: each rule's breach is rejected with its reason, and
// what passes replaces only the kernel's span of the original file.
#include <gtest/gtest.h>

#include "driver/llm/guardrail.h"
#include "driver/llm/response_parse.h"
#include "scripted_endpoint.h"

namespace optiml::llm {
namespace {

using testing::answer;
using testing::kGridStride;
using testing::kGridStrideChanges;
using testing::kScaleSource;

// The reason `code` (with the good changes) is rejected for, or "" when it passes.
std::string rejection(const std::string& code, const std::string& changes = kGridStrideChanges) {
    try {
        guard_answer(kScaleSource, "scale", parse_answer(answer(code, changes)));
        return "";
    } catch (const AnswerRejected& e) {
        return e.stage() + ": " + e.what();
    }
}

TEST(ParseAnswer, ReadsTheCodeTheChangesAndTheSuggestions) {
    const Answer a = parse_answer(answer(kGridStride, kGridStrideChanges));
    EXPECT_EQ(a.code, kGridStride);
    ASSERT_EQ(a.changes.size(), 1u);
    EXPECT_EQ(a.changes[0].first_line, 4);
    EXPECT_EQ(a.changes[0].last_line, 5);
    EXPECT_EQ(a.changes[0].evidence, (std::vector<std::string>{"stall-1", "roofline"}));
    EXPECT_EQ(a.suggestions, (std::vector<std::string>{"vectorize the loads"}));
}

TEST(ParseAnswer, TakesAPlainListOfChangesAndParameters) {
    const Answer list =
        parse_answer(answer(kGridStride, R"([{"lines": [5, 5], "evidence": ["metrics"]}])"));
    EXPECT_EQ(list.changes.size(), 1u);
    const Answer with = parse_answer(answer(
        kGridStride, R"({"changes": [{"lines": 5, "evidence": ["x"]}], "parameters": {"b": 4}})"));
    EXPECT_EQ(with.parameters.at("b"), 4);
}

TEST(ParseAnswer, RemovesLineNumbersCopiedFromTheListing) {
    const Answer a = parse_answer(answer("   3 | __global__ void f() {\n   4 | }\n",
                                         R"([{"lines": [3, 4], "evidence": ["metrics"]}])"));
    EXPECT_EQ(a.code, "__global__ void f() {\n}\n");
}

TEST(ParseAnswer, RejectsMalformedAnswersNamingWhatIsWrong) {
    const auto reason = [](const std::string& content) -> std::string {
        try {
            parse_answer(content);
            return "";
        } catch (const AnswerRejected& e) {
            EXPECT_EQ(e.stage(), "parse");
            return e.what();
        }
    };
    EXPECT_NE(reason("no code at all").find("no fenced ```cuda block"), std::string::npos);
    EXPECT_NE(reason("```cuda\na\n```\n```cuda\nb\n```\n```json\n[]\n```").find("2 fenced"),
              std::string::npos);
    EXPECT_NE(reason("```cuda\na\n```\n").find("no fenced ```json"), std::string::npos);
    EXPECT_NE(reason(answer("a\n", "[]")).find("lists no changes"), std::string::npos);
    EXPECT_NE(reason(answer("a\n", R"([{"lines": "five"}])")).find("changes[0].lines"),
              std::string::npos);
    EXPECT_NE(
        reason(answer("a\n", R"([{"lines": [6, 2], "evidence": ["x"]}])")).find("comes before"),
        std::string::npos);
}

// Read while fuzzing (issue 30): numbers beyond an int's or an int64's range were wrapped into
// them (line 4294967301 read as 5, a parameter of 2^64 - 1 as -1).
TEST(ParseAnswer, RejectsNumbersBeyondTheirRangeInsteadOfWrappingThem) {
    const auto reason = [](const std::string& json) -> std::string {
        try {
            parse_answer(answer("a\n", json));
            return "";
        } catch (const AnswerRejected& e) {
            return e.what();
        }
    };
    EXPECT_NE(reason(R"([{"lines": [4294967301, 4294967301], "evidence": ["x"]}])")
                  .find("changes[0].lines[0]: expected a line number, got 4294967301"),
              std::string::npos);
    EXPECT_NE(reason(R"([{"lines": -9223372036854775807, "evidence": ["x"]}])")
                  .find("expected a line number"),
              std::string::npos);
    EXPECT_NE(reason(R"({"changes": [{"lines": 5, "evidence": ["x"]}],)"
                     R"( "parameters": {"b": 18446744073709551615}})")
                  .find("parameters.b: expected an integer, got 18446744073709551615"),
              std::string::npos);
    EXPECT_EQ(reason(R"({"changes": [{"lines": 5, "evidence": ["x"]}],)"
                     R"( "parameters": {"b": 9223372036854775807}})"),
              "");
}

TEST(Guardrails, AcceptedKernelReplacesOnlyTheKernelsSpan) {
    const GuardedKernel kernel =
        guard_answer(kScaleSource, "scale", parse_answer(answer(kGridStride, kGridStrideChanges)));
    const std::string original = kScaleSource;
    const std::string prefix = original.substr(0, original.find("__global__"));
    EXPECT_EQ(kernel.text, prefix + std::string(kGridStride));
    EXPECT_EQ(kernel.first_line, 3);
    EXPECT_EQ(kernel.last_line, 6);
}

TEST(Guardrails, AllowsDeviceHelpersAndANewLaunchBounds) {
    const std::string helper =
        "__device__ __forceinline__ float load(const float* p, int i) {\n"
        "    return __ldg(p + i);\n}\n";
    const std::string bounded =
        "__global__ void __launch_bounds__(256) scale(int n, const float* __restrict__ x, "
        "float* __restrict__ y) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "#pragma unroll\n    for (int k = 0; k < 1; ++k)\n"
        "        if (i < n) y[i] = twice(load(x, i));\n}\n";
    EXPECT_EQ(rejection(helper + bounded), "");
}

TEST(Guardrails, RejectsAChangedSignature) {
    std::string changed = kGridStride;
    changed.replace(changed.find("const float*"), 12, "float*");
    EXPECT_NE(rejection(changed).find("guardrail: the kernel's signature changed"),
              std::string::npos);
    std::string renamed = kGridStride;
    renamed.replace(renamed.find("int n"), 5, "int count");
    EXPECT_NE(rejection(renamed).find("signature changed"), std::string::npos);
}

TEST(Guardrails, RejectsASecondKernel) {
    const std::string second =
        std::string(kGridStride) + "__global__ void other(float* p) { p[0] = 1.0f; }\n";
    EXPECT_NE(rejection(second).find("second __global__ function `other`"), std::string::npos)
        << rejection(second);
}

TEST(Guardrails, RejectsAMissingKernel) {
    EXPECT_NE(rejection("__device__ float f(float x) { return x; }\n").find("no single definition"),
              std::string::npos);
}

TEST(Guardrails, RejectsHostCode) {
    EXPECT_NE(rejection("void host_side(float* p) { p[0] = 0; }\n" + std::string(kGridStride))
                  .find("host function `host_side`"),
              std::string::npos);
    EXPECT_NE(rejection(std::string(kGridStride) + "int main() { return 0; }\n").find("main"),
              std::string::npos);
    EXPECT_NE(rejection("__host__ __device__ float both(float x) { return x; }\n" +
                        std::string(kGridStride))
                  .find("host function `both`"),
              std::string::npos);
    std::string copies = kGridStride;
    copies.insert(copies.rfind('}'), "    cudaMemcpy(y, x, 4, cudaMemcpyDeviceToDevice);\n");
    EXPECT_NE(rejection(copies).find("calls cudaMemcpy"), std::string::npos);
    std::string runs = kGridStride;
    runs.insert(runs.rfind('}'), "    system(\"rm -rf /\");\n");
    EXPECT_NE(rejection(runs).find("calls system"), std::string::npos);
    std::string launches = kGridStride;
    launches.insert(launches.rfind('}'), "    scale<<<1, 1>>>(n, x, y);\n");
    EXPECT_NE(rejection(launches).find("launches a kernel"), std::string::npos);
    EXPECT_NE(rejection("int leftover\n" + std::string(kGridStride)).find("unterminated"),
              std::string::npos);
    EXPECT_NE(rejection(std::string(kGridStride) + "void tail()\n").find("unterminated"),
              std::string::npos);
    EXPECT_NE(rejection("__device__ float table[4];\n" + std::string(kGridStride))
                  .find("namespace-scope declaration"),
              std::string::npos);
}

TEST(Guardrails, RejectsDirectivesThatReadOrRenameFiles) {
    for (const char* directive :
         {"#include \"secrets.h\"\n", "#include <cstdio>\n", "#include_next <x.h>\n",
          "#embed \"data.bin\"\n", "#line 1 \"other.cu\"\n", "# 7 \"other.cu\"\n", "#pragma once\n",
          "#if __has_include(\"x.h\")\n#endif\n",
          // What the preprocessor reads as an #include although a comment or a line splice
          // stands between the '#' and its name.
          "# /* */ include \"secrets.h\"\n", "#\\\ninclude \"secrets.h\"\n",
          "#pragma /* */ once\n"})
        EXPECT_NE(rejection(directive + std::string(kGridStride)).find("guardrail:"),
                  std::string::npos)
            << directive;
    EXPECT_EQ(rejection("#define TILE 4\n" + std::string(kGridStride)), "");
}

TEST(Guardrails, RejectsChangesCitingNoEvidence) {
    EXPECT_NE(rejection(kGridStride, R"([{"lines": [4, 5], "reason": "faster"}])")
                  .find("change 1 (lines 4-5) cites no evidence"),
              std::string::npos);
    EXPECT_NE(rejection(kGridStride, R"([{"lines": [4, 5], "evidence": ["roofline"]},
                                         {"lines": [6, 6], "evidence": []}])")
                  .find("change 2"),
              std::string::npos);
}

TEST(Guardrails, RejectsTheUnchangedKernel) {
    const std::string original = kScaleSource;
    const std::string kernel = original.substr(original.find("__global__"));
    EXPECT_NE(rejection(kernel).find("unchanged"), std::string::npos);
}

}  // namespace
}  // namespace optiml::llm
