// What the LLM layer did in one tuning, for the cache entry's manifest: per node on an LLM edge
// its EAR scores (ear_metrics.h; directional consistency from the tree's check), its changes and
// suggestions, and the judge's score and verdict; per search the means of the EAR scores, every
// proposal's attempts (rejections with their reasons), and the token usage.
// docs/transformations.md lists the fields.
#pragma once

#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/llm/llm_judge.h"
#include "driver/llm/llm_proposer.h"
#include "driver/search/tree_search.h"

namespace optiml::llm {

// {"nodes": {"<node id>": {"ear": ..., "changes": ..., "suggestions": ..., "judge": ...}},
//  "search": {"ear": ..., "proposals": [...], "usage": ...}}
nlohmann::json llm_record(const search::TreeResult& tree,
                          const std::vector<ProposalRecord>& proposals,
                          const std::map<search::Candidate, JudgeNote>& notes);

// Writes a record into the tree's JSON (search/tree_json.h): each node's entries into its node
// object, the search's under "llm".
void attach_record(nlohmann::json& tree, const nlohmann::json& record);

}  // namespace optiml::llm
