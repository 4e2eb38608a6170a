#include "driver/propose/parameter_moves.h"

#include <algorithm>

namespace optiml::propose {

std::vector<search::Proposal> ParameterMoves::propose(const search::NodeInfo& node) {
    std::vector<search::Proposal> proposals;
    const search::Candidate& from = *node.candidate;
    // Around the original kernel the parameter search has already done this walk: the tree's
    // evaluations go to what only transformations reach, and parameters are re-tuned after them.
    if (from.is_original_source() && from.options.empty() && from.grid.empty()) return proposals;
    for (std::size_t p = 0; p < space_.names.size(); ++p) {
        const std::string& name = space_.names[p];
        const auto& values = space_.values[p];
        const auto at = from.parameters.find(name);
        if (at == from.parameters.end()) continue;
        const auto position = std::find(values.begin(), values.end(), at->second);
        if (position == values.end()) continue;
        const std::size_t index = static_cast<std::size_t>(position - values.begin());
        for (const std::size_t next : {index - 1, index + 1}) {
            if (next >= values.size()) continue;  // index - 1 wraps past the first value
            search::Candidate child = from;
            child.parameters[name] = values[next];
            if (space_.is_valid && !space_.is_valid(child.parameters)) continue;
            search::Proposal proposal;
            proposal.candidate = std::move(child);
            proposal.kind = "parameter";
            proposal.proposer = this->name();
            proposal.transformation =
                name + " " + std::to_string(at->second) + " -> " + std::to_string(values[next]);
            proposal.rationale = "a neighbour in the declared space, after the node's changes";
            proposals.push_back(std::move(proposal));
        }
    }
    return proposals;
}

}  // namespace optiml::propose
