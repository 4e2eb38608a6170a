#include "driver/llm/repair.h"

#include <regex>

#include "driver/llm/prompt_kernel.h"

namespace optiml::llm {
namespace {

// "file(42): error: ..." as NVRTC and nvcc's front end write a message's first line.
const std::regex kMessageHead(R"(^(.*)\((\d+)\): (error|warning|remark|note|catastrophic error))");

}  // namespace

std::string kernel_messages(std::string_view log, std::string_view source_name, int first_line,
                            int last_line, int* dropped) {
    std::string out;
    int others = 0;
    bool keeping = false;
    std::size_t begin = 0;
    while (begin < log.size()) {
        std::size_t end = log.find('\n', begin);
        if (end == std::string_view::npos) end = log.size();
        const std::string line(log.substr(begin, end - begin));
        begin = end + 1;
        std::smatch head;
        if (std::regex_search(line, head, kMessageHead)) {
            const int at = std::stoi(head[2].str());
            keeping = head[1].str() == source_name && first_line <= at && at <= last_line;
            if (!keeping) ++others;
        } else if (line.find("detected in the compilation of") != std::string::npos) {
            keeping = false;  // the summary counts every message, shown or not
        }
        if (keeping) out += line + "\n";
    }
    while (!out.empty() && out.find_last_not_of('\n') + 2 < out.size()) out.pop_back();
    if (dropped) *dropped = others;
    return out;
}

Authored author_kernel(ChatEndpoint& endpoint, ChatRequest request, const AuthoringRules& rules,
                       const KernelCompiler& compile) {
    Authored out;
    const int attempts = 1 + rules.max_repairs;
    for (int number = 1; number <= attempts; ++number) {
        ChatReply reply;
        try {
            reply = endpoint.complete(request);
        } catch (const LlmError& e) {
            out.attempts.push_back({number, "endpoint", e.what()});
            return out;
        }
        out.usage.prompt_tokens += reply.usage.prompt_tokens;
        out.usage.completion_tokens += reply.usage.completion_tokens;
        std::string problem;
        try {
            Answer answer = parse_answer(reply.content);
            GuardedKernel kernel = guard_answer(rules.original, rules.kernel, answer);
            std::map<std::string, std::int64_t> parameters;
            if (rules.parameters)
                parameters = rules.parameters(answer);
            else if (!answer.parameters.empty())
                throw AnswerRejected("parameters", "this kernel has no tunable parameters to set");
            const CompileCheck compiled = compile(kernel.text, parameters);
            if (!compiled.ok) {
                int dropped = 0;
                const std::string messages =
                    kernel_messages(compiled.log, compiled.source_name, kernel.first_line,
                                    kernel.last_line, &dropped);
                std::string reason = "it does not compile";
                if (!messages.empty()) reason += ":\n\n```\n" + messages + "```";
                if (dropped > 0)
                    reason += "\n\n(" + std::to_string(dropped) +
                              " further messages about lines outside your kernel are not shown)";
                throw AnswerRejected("compile", reason);
            }
            out.kernel = std::move(kernel);
            out.answer = std::move(answer);
            out.parameters = std::move(parameters);
            out.attempts.push_back({number, "accepted", ""});
            return out;
        } catch (const AnswerRejected& e) {
            out.attempts.push_back({number, e.stage(), e.what()});
            problem = e.what();
        }
        if (number < attempts)
            request = repair_request(std::move(request), reply.content, rules.kernel, problem,
                                     number + 1, attempts);
    }
    return out;
}

}  // namespace optiml::llm
