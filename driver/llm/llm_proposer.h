// The LLM proposer (kind "llm"): at a profiled node of the transformation tree it asks the model
// for a restructured kernel (prompts/propose.v1.md), takes the answer through the guardrails and
// the compile/repair loop (repair.h), and offers what passes as one edge citing the evidence its
// changes cite; the evaluator then verifies it like any candidate. Each node is asked once, at
// most `max_nodes` nodes a tuning; after an endpoint failure it stops asking. Every exchange's
// attempts, rejections with their reasons, and the proposal's EAR scores are kept in records().
#pragma once

#include <optional>
#include <vector>

#include "driver/llm/chat.h"
#include "driver/llm/ear_metrics.h"
#include "driver/llm/prompt_setup.h"
#include "driver/llm/repair.h"
#include "driver/search/proposer.h"

namespace optiml::llm {

struct LlmProposerOptions {
    int max_nodes = 3;
    int max_repairs = 3;
};

struct ProposalRecord {
    search::Candidate parent;
    std::optional<search::Candidate> child;  // the edge offered; none when every attempt failed
    std::vector<Attempt> attempts;
    std::vector<Change> changes;
    std::vector<std::string> suggestions;
    EarScores ear;  // coverage and localization; directional once measured (ear_record.h)
    Usage usage;
};

class LlmProposer : public search::Proposer {
  public:
    LlmProposer(ChatEndpoint& endpoint, LlmKernelSetup setup, KernelCompiler compile,
                LlmProposerOptions options = {});
    std::string name() const override { return "llm"; }
    std::vector<search::Proposal> propose(const search::NodeInfo& node) override;
    const std::vector<ProposalRecord>& records() const { return records_; }

  private:
    // The variant's parameters with those the answer asks for; throws AnswerRejected
    // (stage "parameters") for a name or value outside the space.
    search::Config parameters_for(const search::Config& now, const Answer& answer) const;

    ChatEndpoint& endpoint_;
    LlmKernelSetup setup_;
    KernelCompiler compile_;
    LlmProposerOptions options_;
    std::vector<ProposalRecord> records_;
    bool endpoint_failed_ = false;
};

}  // namespace optiml::llm
