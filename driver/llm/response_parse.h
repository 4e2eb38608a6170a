// A model's answer to a proposal prompt (prompts/propose.v1.md), parsed: the one fenced ```cuda
// block with the kernel, and the fenced JSON block with the changes (lines, reason, evidence
// ids), the parameter values asked for and the suggestions not applied. Anything else in the
// answer is ignored. A malformed answer is rejected with a reason the repair prompt can carry.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace optiml::llm {

// Why an answer was not taken; `stage` is "parse", "guardrail" or "compile".
class AnswerRejected : public std::runtime_error {
  public:
    AnswerRejected(std::string stage, const std::string& reason)
        : std::runtime_error(reason), stage_(std::move(stage)) {}
    const std::string& stage() const { return stage_; }

  private:
    std::string stage_;
};

struct Change {
    int first_line = 0;  // of the original listing, inclusive
    int last_line = 0;
    std::string reason;
    std::vector<std::string> evidence;  // ids as cited, valid or not
};

struct Answer {
    std::string code;  // the fenced block's text (line-number prefixes a model copied removed)
    std::vector<Change> changes;
    std::map<std::string, std::int64_t> parameters;
    std::vector<std::string> suggestions;
};

// Throws AnswerRejected (stage "parse") naming what is missing or malformed: no ```cuda block,
// more than one, no JSON block, `changes[1].lines: expected [first, last]`, ...
Answer parse_answer(std::string_view content);

}  // namespace optiml::llm
