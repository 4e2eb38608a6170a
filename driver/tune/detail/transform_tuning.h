// OptiML-X: after the parameter search, a tree over transformations (search/tree_search.h)
// rooted at its best candidate, expanded by the rule proposers (parameter moves, compile
// options, source rewrites) and, when a chat endpoint is configured, the LLM proposer, ranked by
// the rule judge or, with an endpoint, the LLM judge (the rule judge its fallback), every node
// verified and timed by the same evaluator (so the incumbent carries over) and profiled on the
// same GPU, its evidence feeding the next proposals.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>

#include <nlohmann/json.hpp>

#include "driver/llm/chat.h"
#include "driver/measure/worker_client.h"
#include "driver/search/tree_search.h"
#include "driver/spec/spec.h"
#include "driver/tune/candidate_evaluator.h"

namespace optiml::tune {

// The part of a budget the parameter search gets when the transformation tree follows it; the
// tree gets what it leaves (evaluations and seconds).
inline constexpr double kParameterShare = 0.6;
// A space of at most this many configurations is measured whole first (when the budget allows),
// whatever the share: every parameter value is then known before any rewrite.
inline constexpr std::size_t kSmallSpace = 32;
// Where the budget is fitted to the space (no evaluations given), the parameter search gets the
// fitted evaluations and the tree these on top: what a budget of 200 left it.
inline constexpr int kFittedTreeEvaluations = 80;

// The parameter search's evaluations out of `budget`, for a space of `valid` configurations: a
// fitted budget's all but the tree's kFittedTreeEvaluations, else its share (kParameterShare, or
// a whole small space).
int parameter_evaluations(const search::Budget& budget, std::size_t valid);

// Whether the tree runs after the parameter search: with the default strategy ("auto"), unless
// $OPTIML_TRANSFORM is "0".
bool transformations_enabled(const search::Budget& budget);

// The tree's options for `evaluator`: as many in flight as it streams (the parameter search's
// depth), never fewer than the tree's own default; a batch evaluator keeps the default batch.
search::TreeOptions tree_options(const search::Evaluator& evaluator);

struct TransformInputs {
    const spec::Spec* spec = nullptr;
    const measure::DeviceInfo* device = nullptr;
    measure::RemoteSession* session = nullptr;
    CandidateEvaluator* evaluator = nullptr;
    const search::Space* space = nullptr;
    const search::Result* parameters = nullptr;  // the parameter search, baseline and best found
    search::Budget budget;                       // what is left for the tree
    std::filesystem::path scratch;
    std::filesystem::path cache_root;  // for the device ceilings
    // The model that proposes and judges; null: rules only, as without an LLM.
    llm::ChatEndpoint* chat = nullptr;
    // Out, when `chat` took part: what the LLM layer did (llm/llm_proposer_record.h).
    nlohmann::json* llm_record = nullptr;
};

// nullopt (with the reason in `log`) when the tree cannot start: the kernel's text is not one
// the editor reads, or the parameter search found nothing correct.
std::optional<search::TreeResult> run_transformations(const TransformInputs& inputs,
                                                      std::ostream& log);

// The parameter search's result with the tree's evaluations appended (their times offset by the
// search's wall time) and the tree's winner as best when it is faster.
search::Result merge_results(search::Result parameters, const search::TreeResult& tree);

}  // namespace optiml::tune
