// The LLM judge. Before measurement it asks the model to score each proposal that changes the
// kernel's text (kinds "llm" and "rewrite"; prompts/judge.v1.md), once per edge; after
// measurement it asks for a verdict on the metric deltas (prompts/verdict.v1.md), kept in notes().
// The rule judge is the fallback (parameter and option moves, an endpoint that fails, an answer
// without a score) and the tie-breaker: an LLM score is the model's plus kTieBreak times the
// rule judge's. The rule judge's check (held / contradicted) stays the tree's consistency, and
// the tree's composite reward takes this judge's score as its judge term.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "driver/llm/chat.h"
#include "driver/llm/prompt_setup.h"
#include "driver/search/proposer.h"

namespace optiml::llm {

struct JudgeNote {
    std::optional<double> score;  // the model's score before measurement
    std::string reason;
    std::optional<double> verdict_score;  // after measurement
    std::string verdict;
    std::string failure;  // why the model's answer was not used, if it was not
};

class LlmJudge : public search::Judge {
  public:
    static constexpr double kTieBreak = 0.01;
    // After this many endpoint failures in a row the model is no longer asked.
    static constexpr int kMaxFailures = 2;

    LlmJudge(ChatEndpoint& endpoint, LlmKernelSetup setup, search::Judge& fallback);
    std::string name() const override { return "llm"; }
    double score(const search::NodeInfo& parent, const search::Proposal& proposal) override;
    search::Consistency check(const search::NodeInfo& parent, const search::Proposal& proposal,
                              const search::Metrics& child) override;
    void learn(const search::NodeInfo& parent, const search::Proposal& proposal,
               const search::Outcome& child) override;

    // By the proposal's candidate.
    const std::map<search::Candidate, JudgeNote>& notes() const { return notes_; }

  private:
    bool asks(const search::Proposal& proposal) const;
    // The "score" of the model's JSON answer to `request`, or nullopt with `failure` set.
    std::optional<double> ask(const ChatRequest& request, std::string& text, std::string& failure);

    ChatEndpoint& endpoint_;
    LlmKernelSetup setup_;
    search::Judge& fallback_;
    std::map<search::Candidate, JudgeNote> notes_;
    std::map<search::Candidate, search::Outcome> outcomes_;
    int failures_in_a_row_ = 0;
};

}  // namespace optiml::llm
