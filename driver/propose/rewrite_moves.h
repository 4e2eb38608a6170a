// Source rewrites as edges of the tree, each offered only where its precondition holds and
// citing the evidence it answers: `__restrict__`/const on the pointers (the spec's read-only
// arguments become const), loads of read-only arguments through `__ldg`, `#pragma unroll` on the
// loop that holds a dominant stall (PC sampling) or, unprofiled, on innermost loops, and
// `__launch_bounds__` at the node's block size where registers limit occupancy; on each loop
// where their preconditions hold, float4/float2 loads of unit-stride float streams, invariant
// loads hoisted out of a storing loop, and a read-modified-written element accumulated in a
// register (citing the stall the loop holds, else the diagnosis); and the structural rewrites:
// privatized atomics, a warp per row for a kernel written one thread per row (its child
// launches the node's grid with x times 32), thread coarsening by 2, 8, 32 and 128 (x
// divided), and a naive transpose staged through a shared tile. Rewrites edit only the kernel's own text (rewrites.h) and compose.
#pragma once

#include "driver/propose/kernel_context.h"
#include "driver/search/proposer.h"

namespace optiml::propose {

class RewriteMoves : public search::Proposer {
  public:
    explicit RewriteMoves(KernelContext context) : context_(std::move(context)) {}
    std::string name() const override { return "rewrites"; }
    std::vector<search::Proposal> propose(const search::NodeInfo& node) override;

  private:
    KernelContext context_;
};

}  // namespace optiml::propose
