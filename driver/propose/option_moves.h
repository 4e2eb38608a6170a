// Compile-option moves: register caps, fast math and its parts, extra vectorization and the
// global-load cache policy, each offered only where its precondition holds (math or division in
// the kernel for fast math, more registers than the cap for -maxrregcount, a loop for
// vectorization, a memory-bound diagnosis for the cache policy). Fast math changes results:
// verification, which every candidate passes through, decides whether it may stay.
#pragma once

#include "driver/propose/kernel_context.h"
#include "driver/search/proposer.h"

namespace optiml::propose {

class OptionMoves : public search::Proposer {
  public:
    explicit OptionMoves(KernelContext context) : context_(std::move(context)) {}
    std::string name() const override { return "compile-options"; }
    std::vector<search::Proposal> propose(const search::NodeInfo& node) override;

  private:
    KernelContext context_;
};

}  // namespace optiml::propose
