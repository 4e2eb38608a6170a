// Parameter moves: a node's neighbours in the declared space (one parameter one step up or down
// its list of values), keeping the node's source and options, wherever the constraints hold. They
// let the tree re-tune the parameters after a rewrite or an option changed what is best; around
// the original kernel with the spec's options, which the parameter search walked, none is offered.
#pragma once

#include "driver/search/proposer.h"

namespace optiml::propose {

class ParameterMoves : public search::Proposer {
  public:
    explicit ParameterMoves(const search::Space& space) : space_(space) {}
    std::string name() const override { return "parameters"; }
    std::vector<search::Proposal> propose(const search::NodeInfo& node) override;

  private:
    const search::Space& space_;
};

}  // namespace optiml::propose
