#include "driver/llm/llm_judge.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "driver/source/rewrite_error.h"

namespace optiml::llm {
namespace {

// The JSON object of an answer: a fenced block's, or the text from its first '{' to its last '}'.
nlohmann::json answer_object(const std::string& content) {
    std::size_t begin = content.find('{');
    const std::size_t end = content.rfind('}');
    if (begin == std::string::npos || end == std::string::npos || end < begin) return nullptr;
    nlohmann::json parsed =
        nlohmann::json::parse(content.substr(begin, end - begin + 1), nullptr, false);
    return parsed.is_discarded() ? nlohmann::json(nullptr) : parsed;
}

}  // namespace

LlmJudge::LlmJudge(ChatEndpoint& endpoint, LlmKernelSetup setup, search::Judge& fallback)
    : endpoint_(endpoint), setup_(std::move(setup)), fallback_(fallback) {}

bool LlmJudge::asks(const search::Proposal& proposal) const {
    return failures_in_a_row_ < kMaxFailures &&
           (proposal.kind == "llm" || proposal.kind == "rewrite");
}

std::optional<double> LlmJudge::ask(const ChatRequest& request, std::string& text,
                                    std::string& failure) {
    ChatReply reply;
    try {
        reply = endpoint_.complete(request);
        failures_in_a_row_ = 0;
    } catch (const LlmError& e) {
        ++failures_in_a_row_;
        failure = e.what();
        return std::nullopt;
    }
    const nlohmann::json object = answer_object(reply.content);
    const auto score = object.is_object() ? object.find("score") : object.end();
    if (!object.is_object() || score == object.end() || !score->is_number() ||
        score->get<double>() < 0.0 || score->get<double>() > 1.0) {
        failure = "the answer has no JSON object with a \"score\" between 0 and 1";
        return std::nullopt;
    }
    for (const char* field : {"reason", "verdict"})
        if (const auto found = object.find(field); found != object.end() && found->is_string())
            text = found->get<std::string>();
    return score->get<double>();
}

double LlmJudge::score(const search::NodeInfo& parent, const search::Proposal& proposal) {
    const double rule = fallback_.score(parent, proposal);
    const auto known = notes_.find(proposal.candidate);
    if (known != notes_.end())
        return known->second.score ? std::min(1.0, *known->second.score + kTieBreak * rule) : rule;
    if (!asks(proposal)) return rule;
    JudgeNote& note = notes_[proposal.candidate];
    try {
        const KernelPrompt prompt = prompt_for(setup_, *parent.candidate);
        const std::string proposed = setup_.context.text_of(proposal.candidate);
        note.score = ask(judge_request(prompt, proposal, proposed), note.reason, note.failure);
    } catch (const source::RewriteError& e) {
        note.failure = e.what();
    }
    return note.score ? std::min(1.0, *note.score + kTieBreak * rule) : rule;
}

search::Consistency LlmJudge::check(const search::NodeInfo& parent,
                                    const search::Proposal& proposal,
                                    const search::Metrics& child) {
    const search::Consistency consistency = fallback_.check(parent, proposal, child);
    const auto outcome = outcomes_.find(proposal.candidate);
    if (!asks(proposal) || outcome == outcomes_.end() || !parent.outcome || !parent.metrics)
        return consistency;
    JudgeNote& note = notes_[proposal.candidate];
    std::string failure;
    note.verdict_score = ask(
        verdict_request(prompt_for(setup_, *parent.candidate), proposal, parent.outcome->median_ms,
                        outcome->second.median_ms, *parent.metrics, child),
        note.verdict, failure);
    if (!note.verdict_score) note.failure = failure;
    return consistency;
}

void LlmJudge::learn(const search::NodeInfo& parent, const search::Proposal& proposal,
                     const search::Outcome& child) {
    fallback_.learn(parent, proposal, child);
    outcomes_[proposal.candidate] = child;
}

}  // namespace optiml::llm
