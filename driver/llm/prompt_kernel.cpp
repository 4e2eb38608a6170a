#include "driver/llm/prompt_kernel.h"

#include <cmath>
#include <cstdio>

#include "driver/base/format.h"
#include "driver/llm/prompt.h"
#include "driver/source/kernel_text.h"

namespace optiml::llm {
namespace {

std::string joined(const std::vector<std::string>& items, const char* separator = ", ") {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
    return out.empty() ? "(none)" : out;
}

std::string evidence_text(const KernelPrompt& prompt) {
    if (!prompt.evidence) return "This variant was not profiled: there is no evidence to cite.";
    return analysis::to_markdown(*prompt.evidence);
}

std::string effects_line(const std::vector<search::Effect>& effects) {
    std::vector<std::string> items;
    for (const auto& e : effects) items.push_back(e.metric + (e.direction < 0 ? " down" : " up"));
    return joined(items);
}

// The values every kernel template shares.
std::map<std::string, std::string> kernel_values(const KernelPrompt& prompt) {
    int first = 0, last = 0;
    std::string listing = numbered_kernel(prompt, &first, &last);
    if (!listing.empty() && listing.back() == '\n') listing.pop_back();
    return {{"device", prompt.device},
            {"kernel_name", prompt.kernel},
            {"source_name", prompt.source_name},
            {"first_line", std::to_string(first)},
            {"last_line", std::to_string(last)},
            {"numbered_kernel", listing},
            {"parameters", parameters_line(prompt.parameters)},
            {"evidence", evidence_text(prompt)}};
}

ChatRequest request_of(const PromptTemplate& prompt, const std::string& text) {
    ChatRequest request;
    request.prompt_id = prompt.id();
    request.messages.push_back({"user", text});
    return request;
}

}  // namespace

std::string numbered_kernel(const KernelPrompt& prompt, int* first_line, int* last_line) {
    const source::KernelText kernel = source::find_kernel(prompt.source, prompt.kernel);
    if (first_line) *first_line = kernel.first_line;
    if (last_line) *last_line = kernel.last_line;
    return numbered_lines(prompt.source, kernel.first_line, kernel.last_line);
}

std::string parameters_line(const search::Config& parameters) {
    std::vector<std::string> items;
    for (const auto& [name, value] : parameters)
        items.push_back(name + "=" + std::to_string(value));
    return joined(items);
}

ChatRequest propose_request(const KernelPrompt& prompt) {
    auto values = kernel_values(prompt);
    values["launch"] = prompt.launch.empty() ? "(as the spec says)" : prompt.launch;
    values["space"] = prompt.space.empty() ? "(no tunable parameters)" : prompt.space;
    const PromptTemplate& t = prompt_template("propose");
    return request_of(t, render(t, values));
}

ChatRequest repair_request(ChatRequest request, const std::string& answer,
                           const std::string& kernel, const std::string& problem, int attempt,
                           int attempts) {
    const PromptTemplate& t = prompt_template("repair");
    request.messages.push_back({"assistant", answer});
    request.messages.push_back({"user", render(t, {{"kernel_name", kernel},
                                                   {"problem", problem},
                                                   {"attempt", std::to_string(attempt)},
                                                   {"attempts", std::to_string(attempts)}})});
    request.prompt_id = t.id();
    return request;
}

ChatRequest judge_request(const KernelPrompt& parent, const search::Proposal& proposal,
                          const std::string& proposed_source) {
    auto values = kernel_values(parent);
    values["kind"] = proposal.kind;
    values["proposer"] = proposal.proposer;
    values["transformation"] = proposal.transformation;
    values["rationale"] = proposal.rationale;
    values["cited"] = joined(proposal.evidence);
    values["expected"] = effects_line(proposal.expected);
    values["proposed_kernel"] = "";
    if (!proposed_source.empty()) {
        KernelPrompt proposed = parent;
        proposed.source = proposed_source;
        values["proposed_kernel"] =
            "The proposed kernel:\n\n```cuda\n" + numbered_kernel(proposed) + "```";
    }
    const PromptTemplate& t = prompt_template("judge");
    return request_of(t, render(t, values));
}

ChatRequest verdict_request(const KernelPrompt& parent, const search::Proposal& proposal,
                            double parent_ms, double child_ms, const search::Metrics& before,
                            const search::Metrics& after) {
    std::string deltas;
    for (const auto& [name, value] : before) {
        const auto found = after.find(name);
        if (found == after.end()) continue;
        const double change = value != 0.0 ? (found->second - value) / std::abs(value) : 0.0;
        char percent[32];
        std::snprintf(percent, sizeof(percent), "%+.1f%%", 100.0 * change);
        deltas += "- " + name + ": " + base::format::precise(value) + " -> " +
                  base::format::precise(found->second) + " (" + percent + ")\n";
    }
    if (deltas.empty()) deltas = "(none measured on both)\n";
    deltas.pop_back();
    const PromptTemplate& t = prompt_template("verdict");
    return request_of(t, render(t, {{"kernel_name", parent.kernel},
                                    {"device", parent.device},
                                    {"transformation", proposal.transformation},
                                    {"rationale", proposal.rationale},
                                    {"cited", joined(proposal.evidence)},
                                    {"parent_ms", base::format::precise(parent_ms)},
                                    {"child_ms", base::format::precise(child_ms)},
                                    {"deltas", deltas}}));
}

}  // namespace optiml::llm

#include "driver/llm/prompt_setup.h"

namespace optiml::llm {

KernelPrompt prompt_for(const LlmKernelSetup& setup, const search::Candidate& candidate) {
    KernelPrompt prompt;
    prompt.device = setup.device;
    prompt.kernel = setup.context.kernel;
    prompt.source_name = setup.source_name;
    prompt.source = setup.context.text_of(candidate);
    prompt.parameters = candidate.parameters;
    prompt.launch = setup.launch;
    if (setup.space) prompt.space = space_lines(*setup.space, candidate.parameters);
    prompt.evidence = setup.context.evidence_of ? setup.context.evidence_of(candidate) : nullptr;
    return prompt;
}

std::string space_lines(const search::Space& space, const search::Config& now) {
    std::string out;
    for (std::size_t i = 0; i < space.names.size(); ++i) {
        std::string values;
        for (const auto value : space.values[i])
            values += (values.empty() ? "" : ", ") + std::to_string(value);
        out += "- " + space.names[i] + ": " + values;
        if (const auto found = now.find(space.names[i]); found != now.end())
            out += " (now " + std::to_string(found->second) + ")";
        out += "\n";
    }
    if (!out.empty()) out.pop_back();
    return out;
}

}  // namespace optiml::llm
