// The guardrails a model's kernel passes before it is compiled (a model is an untrusted author):
// the same __global__ function by name and signature (compared token by token; only
// __launch_bounds__ may differ), no second __global__ function, nothing at namespace scope but
// that kernel and __device__ helper functions (no host functions, no main, no variables), no
// host API calls or kernel launches, no directive that reads files (#include, #include_next,
// #import, #embed, __has_include) or renames them (#line, line markers, #pragma once), every
// change citing evidence. What passes replaces only the kernel's span of the original file.
#pragma once

#include <string>
#include <string_view>

#include "driver/llm/response_parse.h"

namespace optiml::llm {

struct GuardedKernel {
    std::string text;  // the original file with the kernel's span replaced by the answer's code
    // Lines of `text` that came from the answer: the only ones compile messages may be shown for.
    int first_line = 0;
    int last_line = 0;
};

// Throws AnswerRejected (stage "guardrail") with the first rule the answer breaks, or
// source::RewriteError when `original` itself has no single definition of `kernel`.
GuardedKernel guard_answer(std::string_view original, std::string_view kernel,
                           const Answer& answer);

}  // namespace optiml::llm
