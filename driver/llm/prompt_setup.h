// What the LLM proposer and judge need of the pipeline to build their prompts for a node: the
// rule proposers' context (kernel name, a node's text and evidence, a way to register a derived
// text), the device, the file name compile messages use, the launch geometry and the space.
#pragma once

#include <string>

#include "driver/llm/prompt_kernel.h"
#include "driver/propose/kernel_context.h"
#include "driver/search/search.h"

namespace optiml::llm {

struct LlmKernelSetup {
    propose::KernelContext context;
    std::string device;
    std::string source_name;
    std::string launch;
    const search::Space* space = nullptr;  // null: no tunable parameters
};

// The prompt's view of `candidate` (its text, parameters and evidence).
KernelPrompt prompt_for(const LlmKernelSetup& setup, const search::Candidate& candidate);

// One line per parameter: "tile_size_x: 1, 2, 4, 8 (now 4)".
std::string space_lines(const search::Space& space, const search::Config& now);

}  // namespace optiml::llm
