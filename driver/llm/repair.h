// The compile/repair loop of one proposal (Optimas): ask, parse, check the guardrails, compile;
// on any rejection send the reason back and ask again, up to `max_repairs` times. What goes back
// after a compile error is the compiler's messages about the answer's own lines only: a message
// about any other line or file (a header's text, echoed under its error) never leaves the
// machine. Every attempt is recorded with its outcome.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/llm/chat.h"
#include "driver/llm/guardrail.h"
#include "driver/llm/response_parse.h"

namespace optiml::llm {

struct CompileCheck {
    bool ok = false;
    std::string log;          // the compiler's whole log
    std::string source_name;  // the name its messages give the compiled text
};
// Compiles a whole source text as the pipeline would compile the candidate.
using KernelCompiler = std::function<CompileCheck(const std::string& text,
                                                  const std::map<std::string, std::int64_t>&)>;

// The messages of `log` about `source_name` at lines first..last, each with its continuation
// lines (the echoed source line, the caret, "detected during ..."), in order; `dropped` counts
// the others.
std::string kernel_messages(std::string_view log, std::string_view source_name, int first_line,
                            int last_line, int* dropped = nullptr);

struct Attempt {
    int number = 0;      // 1: the first answer; 2..: repairs
    std::string stage;   // "endpoint", "parse", "guardrail", "parameters", "compile", "accepted"
    std::string reason;  // why it was rejected; "" when accepted
};

struct AuthoringRules {
    std::string original;  // the variant's whole text
    std::string kernel;    // the __global__ function's name
    int max_repairs = 3;
    // Checks the parameter values an answer asks for (merged over the variant's); throws
    // AnswerRejected (stage "parameters") when they are not in the space. Null: none allowed.
    std::function<std::map<std::string, std::int64_t>(const Answer&)> parameters;
};

struct Authored {
    std::optional<GuardedKernel> kernel;  // set when an answer passed every check and compiled
    Answer answer;                        // the accepted one
    std::map<std::string, std::int64_t> parameters;  // what it is compiled with
    std::vector<Attempt> attempts;
    Usage usage;  // summed over the exchanges
};

// Never throws for what the model or the endpoint does: an LlmError ends the loop as an
// attempt of stage "endpoint".
Authored author_kernel(ChatEndpoint& endpoint, ChatRequest request, const AuthoringRules& rules,
                       const KernelCompiler& compile);

}  // namespace optiml::llm
