#include "driver/llm/llm_proposer.h"

#include <algorithm>

#include "driver/source/kernel_text.h"
#include "driver/source/rewrite_error.h"

namespace optiml::llm {
namespace {

constexpr std::size_t kTransformationChars = 72;

std::string ids_text(const std::vector<std::string>& ids) {
    std::string out;
    for (const auto& id : ids) out += (out.empty() ? "" : ", ") + id;
    return out;
}

}  // namespace

LlmProposer::LlmProposer(ChatEndpoint& endpoint, LlmKernelSetup setup, KernelCompiler compile,
                         LlmProposerOptions options)
    : endpoint_(endpoint),
      setup_(std::move(setup)),
      compile_(std::move(compile)),
      options_(options) {}

search::Config LlmProposer::parameters_for(const search::Config& now, const Answer& answer) const {
    search::Config merged = now;
    for (const auto& [name, value] : answer.parameters) {
        const auto at =
            setup_.space ? std::find(setup_.space->names.begin(), setup_.space->names.end(), name)
                         : std::vector<std::string>::const_iterator{};
        if (!setup_.space || at == setup_.space->names.end())
            throw AnswerRejected("parameters", "parameters." + name + ": not a tunable parameter");
        const auto& values =
            setup_.space->values[static_cast<std::size_t>(at - setup_.space->names.begin())];
        if (std::find(values.begin(), values.end(), value) == values.end())
            throw AnswerRejected("parameters", "parameters." + name + ": " + std::to_string(value) +
                                                   " is not one of its values");
        merged[name] = value;
    }
    if (setup_.space && setup_.space->is_valid && !setup_.space->is_valid(merged))
        throw AnswerRejected("parameters",
                             "the parameter values asked for break the spec's "
                             "constraints: " +
                                 parameters_line(merged));
    return merged;
}

std::vector<search::Proposal> LlmProposer::propose(const search::NodeInfo& node) {
    if (endpoint_failed_ || static_cast<int>(records_.size()) >= options_.max_nodes) return {};
    const search::Candidate& from = *node.candidate;
    const KernelPrompt prompt = prompt_for(setup_, from);
    if (!prompt.evidence) return {};  // an ungrounded proposal is not asked for
    ChatRequest request;
    source::KernelText original;
    try {
        original = source::find_kernel(prompt.source, prompt.kernel);
        request = propose_request(prompt);
    } catch (const source::RewriteError&) {
        return {};  // a text the editor cannot read is not sent
    }
    AuthoringRules rules;
    rules.original = prompt.source;
    rules.kernel = prompt.kernel;
    rules.max_repairs = options_.max_repairs;
    rules.parameters = [&](const Answer& answer) {
        return parameters_for(from.parameters, answer);
    };

    Authored authored = author_kernel(endpoint_, std::move(request), rules, compile_);
    ProposalRecord record;
    record.parent = from;
    record.attempts = authored.attempts;
    record.usage = authored.usage;
    endpoint_failed_ = std::any_of(authored.attempts.begin(), authored.attempts.end(),
                                   [](const Attempt& a) { return a.stage == "endpoint"; });
    std::vector<search::Proposal> out;
    if (authored.kernel) {
        const Answer& answer = authored.answer;
        const std::vector<std::string> valid = analysis::evidence_ids(*prompt.evidence);
        record.changes = answer.changes;
        record.suggestions = answer.suggestions;
        record.ear.evidence_coverage = evidence_coverage(answer.changes, valid);
        record.ear.localization = localization_agreement(
            answer.changes,
            hotspot_lines(*prompt.evidence, original.first_line, original.last_line));

        search::Proposal p;
        p.kind = "llm";
        p.proposer = name();
        for (const Change& change : answer.changes) {
            for (const auto& id : change.evidence)
                if (std::find(valid.begin(), valid.end(), id) != valid.end() &&
                    std::find(p.evidence.begin(), p.evidence.end(), id) == p.evidence.end())
                    p.evidence.push_back(id);
            p.rationale += (p.rationale.empty() ? "" : "; ") + std::string("lines ") +
                           std::to_string(change.first_line) + "-" +
                           std::to_string(change.last_line) + ": " + change.reason + " [" +
                           ids_text(change.evidence) + "]";
        }
        const std::string& first = answer.changes.front().reason;
        p.transformation = "llm: " + first.substr(0, kTransformationChars) +
                           (first.size() > kTransformationChars ? "..." : "") +
                           (answer.changes.size() > 1
                                ? " (+" + std::to_string(answer.changes.size() - 1) + " more)"
                                : "");
        p.expected = implied_effects(p.evidence, *prompt.evidence);
        if (auto child =
                propose::derive(setup_.context, from, authored.kernel->text, p.transformation)) {
            child->parameters = authored.parameters;
            p.candidate = *child;
            record.child = p.candidate;
            out.push_back(std::move(p));
        }
    }
    records_.push_back(std::move(record));
    return out;
}

}  // namespace optiml::llm
