// Parameter moves: a node's neighbours in the declared space (one parameter one step up or down
// its list of values), keeping the node's source and options, wherever the constraints hold. They
// let the tree re-tune the parameters after a rewrite changed what is best.
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
