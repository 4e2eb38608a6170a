// Synthesis from natural language (OptiML-G at the API level): several models (experts) draft a
// kernel for a request and a reference implementation, a router (the primary model) picks the
// experts relevant to the task, the primary merges their drafts into one kernel and writes its
// spec, and `check` (compile and spec validation, given by the caller) sends problems back for
// up to `max_repairs` repairs. Verification against the reference and tuning follow as for any
// spec (`optiml tune`). Every exchange goes through the given endpoint, so it is cached and
// replayable (docs/llm.md); prompts are versioned by their prompt_id (synth-*@1).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/llm/chat.h"

namespace optiml::llm {

struct SynthRequest {
    std::string request;               // what the kernel must do, in words
    std::string reference_name;        // the reference's file name, for the prompts
    std::string reference;             // its text: a C++ function or an existing kernel
    std::string kernel_name;           // the kernel's (and spec's) name, a C++ identifier
    std::vector<std::string> experts;  // model names that draft
    std::string primary;               // the model that routes, merges and repairs
    int max_repairs = 3;
};

struct SynthDraft {
    std::string model;
    std::string kernel;   // empty when the expert gave none
    std::string problem;  // why it gave none (an LlmError, no code block)
};

struct SynthResult {
    std::vector<std::string> routed;  // the experts asked
    std::string route_note;           // set when the router's answer was unusable (all asked)
    std::vector<SynthDraft> drafts;
    std::string kernel;   // the merged kernel
    nlohmann::json spec;  // the spec the primary wrote
    int repairs = 0;
    bool accepted = false;  // `check` found no problem
    std::string problem;    // the last problem when not accepted
};

// The problem with a kernel and its spec ("" when there is none): compile errors, spec errors.
using SynthCheck =
    std::function<std::string(const std::string& kernel, const nlohmann::json& spec)>;

// Throws LlmError when no expert drafted anything or the primary's answers carry no kernel and
// spec at all; otherwise returns the result, accepted or with its last problem.
SynthResult synthesize(ChatEndpoint& endpoint, const SynthRequest& request, const SynthCheck& check,
                       const std::function<void(const std::string&)>& progress = {});

}  // namespace optiml::llm
