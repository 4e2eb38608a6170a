// The first design of the default strategy: the extremes of the space's ordered parameters,
// measured before any model has data. First the configuration nearest the corner where every
// parameter takes its largest value, then the default with one parameter moved to its largest
// value, each parameter once, in an order drawn from the seed (one-factor-at-a-time screening at
// the top level). Tuning parameters are ordered (tile sizes, vector widths, unroll factors, block
// sizes) and defaults sit at their simple, small end, so these points say which way each
// parameter pulls, and the corner tests them all pulled together.
#pragma once

#include <cstddef>
#include <memory>
#include <random>
#include <vector>

#include "driver/search/candidate_pool.h"
#include "driver/search/strategy.h"

namespace optiml::search {

// Pool indices, none taken and each once, in the order to measure them: at most one more than
// the number of parameters.
std::vector<std::size_t> extremes_design(const CandidatePool& pool, std::mt19937_64& engine);

// How many of random sampling's own draws open the default search, before the design. Where good
// configurations are common (a quarter of a space within 2%), random sampling gets there in 2-4
// evaluations and fixed design points that miss cost more than that; where they are rare, three
// draws cost little. Three made the default no worse than random on every recorded space from
// either start (bench/results/search-efficiency-2026-12-05.md); two lost on the reduction from a
// random start.
inline constexpr std::size_t kRandomOpening = 3;

// Proposes random sampling's first kRandomOpening draws for the seed, then the design's
// configurations (those still untaken when their turn comes), then whatever `then` proposes;
// `then` observes every outcome, the opening's and the design's included.
std::unique_ptr<Strategy> make_designed(CandidatePool& pool, const StrategyOptions& options,
                                        std::unique_ptr<Strategy> then);

}  // namespace optiml::search
