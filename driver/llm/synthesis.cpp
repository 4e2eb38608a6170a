#include "driver/llm/synthesis.h"

#include <algorithm>
#include <optional>

#include "driver/llm/detail/synth_answer.h"

namespace optiml::llm {
namespace {

using nlohmann::json;

constexpr const char* kSystem =
    "You write CUDA kernels. Device code only: no host code, no main(), no #include of files. "
    "Answer in the format asked, with code in fenced blocks.";

std::string task_text(const SynthRequest& request) {
    return "Task: " + request.request + "\n\nReference implementation (" + request.reference_name +
           "), the behaviour the kernel must reproduce exactly:\n```\n" + request.reference +
           "\n```\n\nThe kernel must be named `" + request.kernel_name +
           "` and declared extern \"C\" __global__. Its parameters must be the reference's, in "
           "the same order and with the same meaning (its spec lists them as arguments in that "
           "order), so that both run on the same buffers and their outputs are compared.\n";
}

ChatRequest chat(const std::string& model, const std::string& prompt_id, const std::string& user) {
    ChatRequest out;
    out.model = model;
    out.prompt_id = prompt_id;
    out.messages = {{"system", kSystem}, {"user", user}};
    return out;
}

// The experts the router names, in the configured order; empty when its answer is unusable.
std::vector<std::string> routed_experts(const std::string& answer,
                                        const std::vector<std::string>& experts) {
    const std::optional<std::string> block = fenced_block(answer, {"json"});
    const json parsed = json::parse(block.value_or(answer), nullptr, false);
    std::vector<std::string> chosen;
    if (!parsed.is_object() || !parsed.contains("experts") || !parsed["experts"].is_array())
        return chosen;
    for (const std::string& expert : experts)
        if (std::find(parsed["experts"].begin(), parsed["experts"].end(), expert) !=
            parsed["experts"].end())
            chosen.push_back(expert);
    return chosen;
}

std::string route_prompt(const SynthRequest& request) {
    std::string text = task_text(request) +
                       "\nWhich of these models are most relevant to draft this kernel? Answer "
                       "with a ```json block {\"experts\": [names]} naming one or more of:\n";
    for (const std::string& expert : request.experts) text += "- " + expert + "\n";
    return text;
}

std::string merge_prompt(const SynthRequest& request, const std::vector<SynthDraft>& drafts) {
    std::string text = task_text(request) + "\nDrafts by several models:\n";
    for (const SynthDraft& draft : drafts)
        if (!draft.kernel.empty())
            text += "\n### " + draft.model + "\n```cuda\n" + draft.kernel + "```\n";
    text +=
        "\nMerge the best ideas into one correct, fast kernel. Answer with the kernel in a "
        "```cuda block, then its OptiML spec (docs/spec.md: name, source, kernel, arguments "
        "with type, pointer, count, role and fill, launch block and grid, parameters, "
        "check) in a ```json block.";
    return text;
}

// Reads the kernel and spec of a merge or repair answer into `result`; false when either is
// missing (the problem then says which).
bool take_answer(const std::string& answer, SynthResult& result) {
    const std::optional<std::string> kernel = kernel_block(answer);
    const std::optional<std::string> spec_text = fenced_block(answer, {"json"});
    if (!kernel) {
        result.problem = "the answer has no ```cuda block with the kernel";
        return false;
    }
    const json spec = spec_text ? json::parse(*spec_text, nullptr, false) : json();
    if (!spec.is_object()) {
        result.problem = "the answer has no ```json block with the spec as a JSON object";
        return false;
    }
    result.kernel = *kernel;
    result.spec = spec;
    return true;
}

}  // namespace

SynthResult synthesize(ChatEndpoint& endpoint, const SynthRequest& request, const SynthCheck& check,
                       const std::function<void(const std::string&)>& progress) {
    const auto say = [&](const std::string& line) {
        if (progress) progress(line);
    };
    if (request.experts.empty()) throw LlmError("synthesis needs at least one expert model");
    SynthResult result;

    result.routed = request.experts;
    if (request.experts.size() > 1) {
        const ChatReply route =
            endpoint.complete(chat(request.primary, "synth-route@2", route_prompt(request)));
        std::vector<std::string> chosen = routed_experts(route.content, request.experts);
        if (chosen.empty())
            result.route_note = "the router named none of the experts; asking all of them";
        else
            result.routed = std::move(chosen);
    }
    for (const std::string& expert : result.routed) {
        SynthDraft draft{expert, {}, {}};
        try {
            const ChatReply reply = endpoint.complete(chat(
                expert, "synth-draft@2",
                task_text(request) + "\nWrite the kernel. Answer with it in one ```cuda block."));
            if (auto kernel = kernel_block(reply.content))
                draft.kernel = *kernel;
            else
                draft.problem = "no ```cuda block in the answer";
        } catch (const LlmError& e) {
            draft.problem = e.what();
        }
        say("draft by " + expert + ": " + (draft.kernel.empty() ? draft.problem : "received"));
        result.drafts.push_back(std::move(draft));
    }
    if (std::none_of(result.drafts.begin(), result.drafts.end(),
                     [](const SynthDraft& d) { return !d.kernel.empty(); }))
        throw LlmError("synthesis: no expert drafted a kernel (" + result.drafts.front().model +
                       ": " + result.drafts.front().problem + ")");

    std::vector<Message> conversation = {{"system", kSystem},
                                         {"user", merge_prompt(request, result.drafts)}};
    std::string prompt_id = "synth-merge@2";
    for (;;) {
        ChatRequest ask;
        ask.model = request.primary;
        ask.prompt_id = prompt_id;
        ask.messages = conversation;
        const ChatReply reply = endpoint.complete(ask);
        conversation.push_back({"assistant", reply.content});
        if (take_answer(reply.content, result)) {
            result.problem = check(result.kernel, result.spec);
            if (result.problem.empty()) {
                result.accepted = true;
                say("merged kernel accepted after " + std::to_string(result.repairs) + " repairs");
                return result;
            }
        } else if (result.kernel.empty() && result.repairs >= request.max_repairs) {
            throw LlmError("synthesis: the primary model's answers carry no kernel and spec (" +
                           result.problem + ")");
        }
        if (result.repairs >= request.max_repairs) return result;
        ++result.repairs;
        say("repair " + std::to_string(result.repairs) + " of " +
            std::to_string(request.max_repairs) + ": " + result.problem.substr(0, 200));
        conversation.push_back(
            {"user", "That answer has a problem:\n```\n" + result.problem +
                         "\n```\nFix it and answer again with the whole kernel in a ```cuda "
                         "block and the whole spec in a ```json block."});
        prompt_id = "synth-repair@2";
    }
}

}  // namespace optiml::llm
