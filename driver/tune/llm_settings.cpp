#include "driver/tune/llm_settings.h"

#include "driver/llm/prompt.h"
#include "driver/tune/detail/transform_tuning.h"

namespace optiml::tune {

cache::LlmKeyInputs llm_key_inputs(const llm::LlmConfig& config, const std::string& strategy) {
    if (!config.enabled() || !transformations_enabled({0, 0, strategy})) return {};
    return {true, config.model, llm::tuning_prompt_fingerprints()};
}

llm::LlmConfig build_llm_config(const identity::ResolvedKernel& kernel, llm::LlmConfig config) {
    if (!kernel.build) return config;
    return llm::apply_overrides(std::move(config),
                                llm::overrides_from_json(kernel.build->llm_flags));
}

}  // namespace optiml::tune
