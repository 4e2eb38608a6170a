// The candidate: the unit the search, the trace, the cache entry and the generated launcher
// share. Standard library only, so every room may name it without pulling in a search.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace optiml::search {

using Config = std::map<std::string, std::int64_t>;

// A variant to measure: its parameters, and whatever else makes it differ from the original: a
// derived source (named by its id, the SHA-256 of its text; empty for the spec's own source) with
// the transformations that made it, in order, compile options beyond the spec's, and the launch
// grid where a structural rewrite changed it. search/ treats ids, options and grids as names;
// tune/ holds the text an id stands for. Two candidates with the same parameters but different
// sources are different variants.
struct Candidate {
    Candidate() = default;
    explicit Candidate(Config parameters_of_original)
        : parameters(std::move(parameters_of_original)) {}
    Candidate(Config params, std::string source, std::vector<std::string> made_by,
              std::vector<std::string> extra_options)
        : parameters(std::move(params)),
          source_id(std::move(source)),
          transformations(std::move(made_by)),
          options(std::move(extra_options)) {}

    Config parameters;
    std::string source_id;
    std::vector<std::string> transformations;
    std::vector<std::string> options;
    // The grid's three axes as expressions in the spec's language, where a rewrite changed which
    // thread does which work (a warp per row: the spec's x times 32); empty: the spec's grid.
    std::vector<std::string> grid;

    bool is_original_source() const { return source_id.empty(); }
    auto operator<=>(const Candidate&) const = default;
};

}  // namespace optiml::search
