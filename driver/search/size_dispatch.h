// Which tuned variants a kernel ships across the problems it was tuned at, and at which sizes
// each takes over: from the generalisation matrix (every winner timed at every problem), the
// smallest set of variants that keeps every problem within a tolerance of its own best, laid
// out as ranges along the dispatch axis (a problem's size), with boundaries between them.
#pragma once

#include <cstddef>
#include <vector>

namespace optiml::search {

// Tolerance a problem's dispatched variant may lose against that problem's best: 3%.
inline constexpr double kDispatchTolerance = 0.03;

struct GeneralisationMatrix {
    // Each problem's position on the dispatch axis (its size: n, or the product of the sizes a
    // problem sets), strictly ascending.
    std::vector<double> sizes;
    // times[v][p]: variant v's time (ms) at problem p; not above 0 (or NaN) where it failed there.
    std::vector<std::vector<double>> times;
};

struct SizeRange {
    std::size_t variant = 0;          // a row of the matrix
    std::size_t first = 0, last = 0;  // the problems it serves (indices, inclusive)
    double below = 0.0;               // sizes below this go here (the last range: infinity)
};

struct SizeDispatch {
    std::vector<std::size_t> variants;  // the chosen rows, ascending
    std::vector<SizeRange> ranges;      // along the axis, adjacent ranges with other variants
    // Per problem: its dispatched variant's time over its best, minus 1 (0: the best itself).
    std::vector<double> loss;
};

// The fewest variants that keep every problem within `tolerance` of its best (ties: the lower sum
// of relative times over all problems, then the earlier rows), then the fewest ranges with them
// (each run of problems one of them serves, longest first); a boundary lies halfway between two
// problems on a log scale. Throws std::invalid_argument for sizes that are not strictly ascending
// and positive, rows of another length, more than 16 problems or 16 variants, or a problem no
// variant ran.
SizeDispatch choose_dispatch(const GeneralisationMatrix& matrix,
                             double tolerance = kDispatchTolerance);

// The range that serves `size`: the first whose boundary lies above it.
const SizeRange& range_for(const SizeDispatch& dispatch, double size);

}  // namespace optiml::search
