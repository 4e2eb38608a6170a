// The prompt templates (driver/llm/prompts/<name>.v<version>.md, embedded at build time) and how
// they are filled: `{{name}}` placeholders replaced by values, every placeholder required. A
// template's id ("propose@1") goes into ChatRequest::prompt_id, so the exchange cache keys on it;
// changing a template's meaning means a new file with the next version.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace optiml::llm {

struct PromptTemplate {
    std::string name;  // "propose", "repair", "judge", "verdict"
    int version = 0;
    std::string text;
    std::string id() const { return name + "@" + std::to_string(version); }
};

// The current version of a template; throws LlmError for a name there is none of.
const PromptTemplate& prompt_template(std::string_view name);

// The templates a tuning asks with (propose, repair, judge, verdict), each as "<id> <lowercase
// hex SHA-256 of its text>", e.g. "propose@1 3f2a...": what a tuning's cache key records of its
// prompts, so an edited template retunes even where its version was not bumped.
std::vector<std::string> tuning_prompt_fingerprints();

// The template with every `{{key}}` replaced by values.at(key). Throws LlmError naming the
// template and the placeholder when a value is missing or a value is given that it never uses.
std::string render(const PromptTemplate& prompt, const std::map<std::string, std::string>& values);

// Lines first..last (1-based, inclusive) of `text`, each prefixed with its number right-aligned
// and a bar: "  42 | for (int k = 0; ...". Lines past the end are not shown.
std::string numbered_lines(std::string_view text, int first, int last);

}  // namespace optiml::llm
