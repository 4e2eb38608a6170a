// What the rule proposers need of the pipeline besides a node's measurement: the kernel's name,
// which pointer arguments the spec marks read-only, a node's kernel text and evidence, its block
// size, and a way to register a derived text. The pipeline (driver/tune/) fills it in; tests fill
// it with plain values.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "driver/analysis/evidence.h"
#include "driver/search/search.h"

namespace optiml::propose {

struct KernelContext {
    std::string kernel;               // the __global__ function's name in the text
    std::set<std::string> read_only;  // pointer arguments the spec marks "input"
    // Elements each pointer argument holds at the spec's problem (its `count`).
    std::map<std::string, long> pointer_counts;
    // The spec's launch grid, three expressions in its language (a rewrite that changes which
    // thread does which work derives a child's grid from it).
    std::vector<std::string> grid;
    // The exact text a candidate compiles from.
    std::function<std::string(const search::Candidate&)> text_of;
    // The node's evidence report (stalls by line, roofline), or null when it was not profiled.
    std::function<const analysis::EvidenceReport*(const search::Candidate&)> evidence_of;
    // Threads per block at a configuration; nullopt when the launch cannot be evaluated.
    std::function<std::optional<long>(const search::Config&)> block_threads;
    // Keeps a derived text for the evaluator and returns its id (a candidate's source_id).
    std::function<std::string(const std::string& text)> register_source;
};

// The child of `parent` whose source is `text` (made by `transformation`), or nullopt when the
// text is the parent's own.
std::optional<search::Candidate> derive(const KernelContext& context,
                                        const search::Candidate& parent, const std::string& text,
                                        const std::string& transformation);

// The child of `parent` with one more compile option.
search::Candidate with_option(const search::Candidate& parent, const std::string& option);

}  // namespace optiml::propose
