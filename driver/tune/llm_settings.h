// The LLM's part of a kernel's identity: which settings a build used, and what of them changes a
// tuning's result (the key's LLM inputs). Here rather than in identity/, which knows nothing of
// the LLM layer: identity/ carries the build's LLM flags as written, this reads them.
#pragma once

#include <string>

#include "cache/key.h"
#include "driver/identity/kernel_identity.h"
#include "driver/llm/llm_config.h"

namespace optiml::tune {

// What of the LLM configuration changes a tuning's result: the model and the tuning's prompt
// templates, when an LLM takes part (an endpoint or replay is configured and the search `strategy`
// runs the transformation tree, where the LLM proposes and judges); else nothing. Not the base
// URL (a replay has none, and the exchange cache treats the same model behind another address as
// the same), the API key, timeouts, retries or the token budget. docs/caching.md says why.
cache::LlmKeyInputs llm_key_inputs(const llm::LlmConfig& config, const std::string& strategy);

// The LLM configuration the build used: `config` (the environment and this command's flags) with
// the build's LLM flags over it, as `optiml build` applied them; `config` itself when the kernel
// was not resolved from a build. llm_key_inputs(result, kernel.spec.budget.strategy) is the LLM's
// part of the build's key.
llm::LlmConfig build_llm_config(const identity::ResolvedKernel& kernel, llm::LlmConfig config);

}  // namespace optiml::tune
