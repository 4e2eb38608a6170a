// The judge without an LLM. Before measurement it scores a proposal by whether the metrics it
// expects to move are the ones the diagnosis wants moved (less DRAM traffic for a memory-bound
// kernel, fewer instructions for a compute-bound one, more resident warps for a latency-bound
// one) and whether it cites a dominant stall; after measurement it checks that each expected
// metric moved the predicted way by more than kNoise. It also learns within a tuning: a
// transformation that already made some node slower, or failed verification, ranks lower where
// it is offered again; one that made a node faster ranks higher. docs/transformations.md has the
// numbers.
#pragma once

#include <map>

#include "driver/search/proposer.h"

namespace optiml::propose {

class RuleJudge : public search::Judge {
  public:
    // A relative change smaller than this is noise: neither held nor contradicted.
    static constexpr double kNoise = 0.02;

    std::string name() const override { return "rules"; }
    double score(const search::NodeInfo& parent, const search::Proposal& proposal) override;
    search::Consistency check(const search::NodeInfo& parent, const search::Proposal& proposal,
                              const search::Metrics& child) override;
    void learn(const search::NodeInfo& parent, const search::Proposal& proposal,
               const search::Outcome& child) override;

  private:
    struct Seen {
        int measured = 0;
        double log_speedup_sum = 0.0;  // ln(parent / child) of each measured application
        int failed = 0;
    };
    std::map<std::string, Seen> seen_;  // by transformation, as proposals name it
};

// Whether moving `effect` is what a `bottleneck` ("memory", "compute", "latency") kernel needs.
bool answers_bottleneck(const search::Effect& effect, const std::string& bottleneck);

}  // namespace optiml::propose
