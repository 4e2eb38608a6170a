// The LLM flags shared by `optiml tune` and `optiml build` (docs/llm.md, docs/cli.md). There is
// deliberately no flag for the API key: command lines end up in build files and process lists,
// so the key comes from OPTIML_LLM_API_KEY only.
#pragma once

#include <CLI/CLI.hpp>

#include "driver/llm/llm_config.h"

namespace optiml::cli {

void add_llm_options(CLI::App& command, llm::LlmOverrides& overrides);

}  // namespace optiml::cli
