// The exchanges the LLM layer has with a model, as ChatRequests: a proposal for one variant of a
// kernel (the Optimas layout: the kernel with the file's line numbers, the evidence with its ids,
// the guardrails, the answer format), a repair after a rejected answer, a judge's score of a
// proposal before it is measured, and its verdict on the metric deltas after.
#pragma once

#include <string>
#include <vector>

#include "driver/analysis/evidence.h"
#include "driver/llm/chat.h"
#include "driver/search/proposer.h"

namespace optiml::llm {

// What a prompt shows of one variant.
struct KernelPrompt {
    std::string device;       // "NVIDIA H200"
    std::string kernel;       // the __global__ function's name
    std::string source_name;  // the file's name, as compile messages name it
    std::string source;       // the variant's whole text
    search::Config parameters;
    std::string launch;  // the spec's launch geometry, one line
    std::string space;   // the tunable parameters and their values, one line each
    const analysis::EvidenceReport* evidence = nullptr;  // null: not profiled
};

// The kernel's lines in `prompt.source`, numbered as in the file (throws RewriteError when the
// kernel is not found there).
std::string numbered_kernel(const KernelPrompt& prompt, int* first_line = nullptr,
                            int* last_line = nullptr);

// "block_size_x=16, tile_k=8"; "(none)" for an empty configuration.
std::string parameters_line(const search::Config& parameters);

// The first message of a proposal: template "propose".
ChatRequest propose_request(const KernelPrompt& prompt);

// `request` continued after a rejected answer: the model's answer as the assistant's message,
// then template "repair" saying what was wrong (`problem`), attempt `attempt` of `attempts`.
ChatRequest repair_request(ChatRequest request, const std::string& answer,
                           const std::string& kernel, const std::string& problem, int attempt,
                           int attempts);

// The judge's score of `proposal` for the variant `parent` shows: template "judge".
// `proposed_source` is the proposal's text when it changes the kernel ("" otherwise).
ChatRequest judge_request(const KernelPrompt& parent, const search::Proposal& proposal,
                          const std::string& proposed_source);

// The judge's verdict on what a measured proposal moved: template "verdict".
ChatRequest verdict_request(const KernelPrompt& parent, const search::Proposal& proposal,
                            double parent_ms, double child_ms, const search::Metrics& before,
                            const search::Metrics& after);

}  // namespace optiml::llm
