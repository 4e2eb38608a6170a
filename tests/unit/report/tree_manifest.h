// A manifest whose transformation tree (written by the tree's own JSON mapping) has one step, a
// rewrite of the kernel's loop, with the texts of both sources: for explain() and the HTML report.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "driver/search/tree_json.h"

namespace optiml::report {

inline search::Outcome timed(double ms) {
    search::Outcome o;
    o.ok = true;
    o.status = "ok";
    o.median_ms = o.min_ms = o.max_ms = ms;
    o.runs = 10;
    return o;
}

inline nlohmann::json manifest_with_tree() {
    search::TreeResult tree;
    search::TreeNode root;
    root.proposal.candidate = search::Candidate({{"block", 256}});
    root.outcome = timed(2.0);
    root.metrics = {{"instructions_executed", 1000}};
    tree.nodes.push_back(root);
    search::TreeNode step;
    step.id = 1;
    step.parent = 0;
    step.proposal.candidate =
        search::Candidate({{"block", 256}}, "ab12", {"unroll line 2 by 4"}, {});
    step.proposal.kind = "rewrite";
    step.proposal.proposer = "rewrites";
    step.proposal.transformation = "unroll line 2 by 4";
    step.proposal.rationale = "the loop holds dominant stall stall-1";
    step.proposal.evidence = {"stall-1"};
    step.proposal.expected = {{"instructions_executed", -1}};
    step.outcome = timed(1.6);
    step.metrics = {{"instructions_executed", 800}};
    step.reward.speedup = 0.22;
    step.reward.total = 0.25;
    tree.nodes.push_back(step);
    tree.best = 1;
    tree.winning_path = {0, 1};
    nlohmann::json m = {{"name", "k"},
                        {"kernel", "k"},
                        {"arch", "sm_90"},
                        {"device", {{"name", "NVIDIA H200"}}},
                        {"original_time_ms", {{"median", 2.4}}},
                        {"time_ms", {{"median", 1.6}}},
                        {"speedup", 1.5},
                        {"parameters", {{"block", 256}}},
                        {"search",
                         {{"strategy", "exhaustive + transformations"},
                          {"evaluations", 9},
                          {"tree", search::write_tree(tree)}}}};
    return m;
}

// The texts of the root's source ("") and of the step's ("ab12").
inline std::optional<std::string> tree_sources(const std::string& id) {
    if (id.empty()) return "__global__ void k() {\n  for (;;) {}\n}\n";
    if (id == "ab12") return "__global__ void k() {\n#pragma unroll 4\n  for (;;) {}\n}\n";
    return std::nullopt;
}

}  // namespace optiml::report
