// A ChatEndpoint for unit tests: answers from a script, in order (the last answer repeats), and
// keeps every request it was sent. An answer may be an LlmError instead, as a failing endpoint's.
// With scripts by prompt template ("propose@1", "judge@1", ...) each template's answers come in
// their own order; the script under "" answers every other template.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "driver/analysis/evidence.h"
#include "driver/llm/chat.h"

namespace optiml::llm::testing {

struct Fails {
    std::string message;
};

class ScriptedEndpoint : public ChatEndpoint {
  public:
    using Script = std::vector<std::variant<std::string, Fails>>;
    explicit ScriptedEndpoint(Script answers) { scripts_[""] = std::move(answers); }
    explicit ScriptedEndpoint(std::map<std::string, Script> by_prompt)
        : scripts_(std::move(by_prompt)) {}

    ChatReply complete(const ChatRequest& request) override {
        requests.push_back(request);
        const std::string id = scripts_.contains(request.prompt_id) ? request.prompt_id : "";
        if (!scripts_.contains(id)) throw LlmError("scripted: no answer for " + request.prompt_id);
        const Script& script = scripts_.at(id);
        std::size_t& next = next_[id];
        const auto& answer = script.at(std::min(next++, script.size() - 1));
        if (const auto* failure = std::get_if<Fails>(&answer)) throw LlmError(failure->message);
        ChatReply reply;
        reply.content = std::get<std::string>(answer);
        reply.usage = {100, 50};
        return reply;
    }

    std::vector<ChatRequest> requests;

  private:
    std::map<std::string, Script> scripts_;
    std::map<std::string, std::size_t> next_;
};

// A model's answer in the propose template's format.
inline std::string answer(const std::string& code, const std::string& json) {
    return "Here is the kernel.\n\n```cuda\n" + code + "```\n\nChanges:\n\n```json\n" + json +
           "\n```\n";
}

// A small kernel with a helper template before it (line 2) and its evidence: memory-bound, one
// dominant stall on the load at line 5.
inline const char* kScaleSource =
    "#define FACTOR 2\n"
    "template <typename T> __device__ T twice(T x) { return x * FACTOR; }  // HELPER-TEXT\n"
    "__global__ void scale(int n, const float* __restrict__ x, float* __restrict__ y) {\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) y[i] = twice(x[i]);\n"
    "}\n";

inline analysis::EvidenceReport scale_evidence() {
    analysis::EvidenceReport report;
    report.kernel = "scale";
    report.variant = "original";
    report.device = "NVIDIA H200";
    analysis::KernelCounters counters;
    counters.duration_s = 1e-3;
    counters.dram_bytes = 8e6;
    report.metrics = counters;
    analysis::RooflineVerdict verdict;
    verdict.bound = analysis::Bound::Memory;
    verdict.limiter = "dram_roof";
    verdict.explanation = "DRAM-bound: 90% of the bandwidth roof.";
    report.roofline = verdict;
    analysis::StallSummary stalls;
    stalls.total_samples = 1000;
    stalls.stalled_samples = 800;
    stalls.dominant.push_back({"stall-1", "scale.cu", 5, "long_scoreboard", 600, 0.75,
                               "waiting on a global memory load"});
    report.stalls = stalls;
    return report;
}

// The grid-stride kernel a good answer brings.
inline const char* kGridStride =
    "__global__ void scale(int n, const float* __restrict__ x, float* __restrict__ y) {\n"
    "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * "
    "blockDim.x)\n"
    "        y[i] = twice(x[i]);\n"
    "}\n";

inline const char* kGridStrideChanges =
    R"({"changes": [{"lines": [4, 5], "reason": "grid-stride loop over the elements",
                  "evidence": ["stall-1", "roofline"]}],
 "suggestions": ["vectorize the loads"]})";

}  // namespace optiml::llm::testing
