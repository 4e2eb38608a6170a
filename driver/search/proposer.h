// What the transformation tree (tree_search.h) expands nodes with and ranks them by: proposers
// offer edges (a parameter move, a compile-option change, a source rewrite, later an LLM patch),
// a judge scores each before it is measured and checks afterwards whether the metrics it named
// moved as it said. search/ sees names and numbers only; proposers that read kernel text and
// evidence live in driver/propose/ (and driver/llm/) and are handed in by the pipeline.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "driver/search/search.h"

namespace optiml::search {

// A node's profiled counters by name ("dram_bytes", "instructions_executed",
// "achieved_occupancy_pct", "registers_per_thread", "spill_bytes", ...; docs/evidence.md).
using Metrics = std::map<std::string, double>;

// A metric a proposal expects to move, and which way: -1 down, +1 up.
struct Effect {
    std::string metric;
    int direction = -1;
    auto operator<=>(const Effect&) const = default;
};

struct Proposal {
    Candidate candidate;                // the child node's candidate
    std::string kind;                   // "parameter", "options", "rewrite", "llm"
    std::string proposer;               // the proposer's name()
    std::string transformation;         // one line: "unroll the loop at line 42 by 4"
    std::string rationale;              // one line saying why, citing the evidence ids
    std::vector<std::string> evidence;  // the ids cited ("roofline", "stall-1"; evidence.md)
    std::vector<Effect> expected;       // what it should move
    // It changes which thread does which work or where data lives (privatized atomics, and the
    // other structural rewrites of docs/transformations.md), acting on the statement its cited
    // stall is on rather than on the instructions around it.
    bool structural = false;
    // The derived kernel text when the candidate names a source the pipeline may not hold yet;
    // empty when the candidate's source is known (the original, or the parent's).
    std::string source_text;
};

// A measured node as proposers and the judge see it.
struct NodeInfo {
    const Candidate* candidate = nullptr;
    const Outcome* outcome = nullptr;
    const Metrics* metrics = nullptr;  // empty when the node was not profiled
    // The diagnosis: "memory", "compute", "latency", or "" when unknown (not profiled).
    std::string bottleneck;
};

class Proposer {
  public:
    virtual ~Proposer() = default;
    virtual std::string name() const = 0;
    // Edges out of `node`, each only where its precondition holds; empty when it has none.
    virtual std::vector<Proposal> propose(const NodeInfo& node) = 0;
};

// How a measured child's metrics compare with what its proposal expected.
struct Consistency {
    int held = 0;          // expected metrics that moved the predicted way
    int contradicted = 0;  // moved the other way (beyond noise)
    int unmeasured = 0;    // not profiled on parent or child
    bool consistent() const { return contradicted == 0 && held > 0; }
};

class Judge {
  public:
    virtual ~Judge() = default;
    virtual std::string name() const = 0;
    // Before measurement: how promising the proposal is for this node, in [0, 1]. The tree
    // spends its evaluations on the higher ones first.
    virtual double score(const NodeInfo& parent, const Proposal& proposal) = 0;
    // After measurement: did the expected metrics move as predicted?
    virtual Consistency check(const NodeInfo& parent, const Proposal& proposal,
                              const Metrics& child) = 0;
    // Every measured child, failed ones too, as it arrives: a judge may learn from what the
    // same transformation did elsewhere in the tree. Later scores may then differ.
    virtual void learn(const NodeInfo& /*parent*/, const Proposal& /*proposal*/,
                       const Outcome& /*child*/) {}
};

}  // namespace optiml::search
