#include "driver/search/size_dispatch.h"

#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace optiml::search {
namespace {

constexpr std::size_t kMostProblems = 16;
constexpr std::size_t kMostVariants = 16;

bool ran(double ms) {
    return ms > 0.0;  // false for NaN too
}

void check_shape(const GeneralisationMatrix& m) {
    const std::size_t problems = m.sizes.size();
    if (problems == 0 || problems > kMostProblems)
        throw std::invalid_argument("choose_dispatch: " + std::to_string(problems) +
                                    " problems (1 to 16)");
    if (m.times.empty() || m.times.size() > kMostVariants)
        throw std::invalid_argument("choose_dispatch: " + std::to_string(m.times.size()) +
                                    " variants (1 to 16)");
    for (std::size_t p = 0; p < problems; ++p)
        if (!(m.sizes[p] > 0.0) || (p > 0 && !(m.sizes[p] > m.sizes[p - 1])))
            throw std::invalid_argument("choose_dispatch: sizes must be positive and ascending");
    for (const std::vector<double>& row : m.times)
        if (row.size() != problems)
            throw std::invalid_argument("choose_dispatch: a row of " + std::to_string(row.size()) +
                                        " times for " + std::to_string(problems) + " problems");
}

}  // namespace

SizeDispatch choose_dispatch(const GeneralisationMatrix& m, double tolerance) {
    check_shape(m);
    const std::size_t problems = m.sizes.size(), variants = m.times.size();
    std::vector<double> best(problems, std::numeric_limits<double>::infinity());
    for (const std::vector<double>& row : m.times)
        for (std::size_t p = 0; p < problems; ++p)
            if (ran(row[p]) && row[p] < best[p]) best[p] = row[p];
    for (std::size_t p = 0; p < problems; ++p)
        if (std::isinf(best[p]))
            throw std::invalid_argument("choose_dispatch: no variant ran at problem " +
                                        std::to_string(p));
    const auto fits = [&](std::size_t v, std::size_t p) {
        return ran(m.times[v][p]) && m.times[v][p] <= best[p] * (1.0 + tolerance);
    };
    // Every set of variants, fewest first: at most 2^16, each checked against 16 problems.
    std::size_t chosen = 0;
    int chosen_count = 0;
    double chosen_cost = 0.0;
    for (std::size_t set = 1; set < (std::size_t{1} << variants); ++set) {
        const int count = std::popcount(set);
        if (chosen && count > chosen_count) continue;
        double cost = 0.0;
        bool covers = true;
        for (std::size_t p = 0; p < problems && covers; ++p) {
            double fastest = std::numeric_limits<double>::infinity();
            for (std::size_t v = 0; v < variants; ++v)
                if ((set >> v & 1) && fits(v, p)) fastest = std::min(fastest, m.times[v][p]);
            covers = !std::isinf(fastest);
            cost += fastest / best[p];
        }
        if (covers && (!chosen || count < chosen_count || cost < chosen_cost)) {
            chosen = set;
            chosen_count = count;
            chosen_cost = cost;
        }
    }
    SizeDispatch dispatch;
    for (std::size_t v = 0; v < variants; ++v)
        if (chosen >> v & 1) dispatch.variants.push_back(v);
    // Runs of problems one chosen variant serves, the longest from each start (fewest ranges).
    for (std::size_t first = 0; first < problems;) {
        std::size_t longest = 0, variant = 0;
        for (const std::size_t v : dispatch.variants) {
            std::size_t end = first;
            while (end < problems && fits(v, end)) ++end;
            if (end - first > longest) longest = end - first, variant = v;
        }
        dispatch.ranges.push_back({variant, first, first + longest - 1, 0.0});
        first += longest;
    }
    for (std::size_t r = 0; r < dispatch.ranges.size(); ++r) {
        SizeRange& range = dispatch.ranges[r];
        range.below = r + 1 == dispatch.ranges.size()
                          ? std::numeric_limits<double>::infinity()
                          : std::sqrt(m.sizes[range.last] * m.sizes[range.last + 1]);
        for (std::size_t p = range.first; p <= range.last; ++p)
            dispatch.loss.push_back(m.times[range.variant][p] / best[p] - 1.0);
    }
    return dispatch;
}

const SizeRange& range_for(const SizeDispatch& dispatch, double size) {
    for (const SizeRange& range : dispatch.ranges)
        if (size < range.below) return range;
    return dispatch.ranges.back();
}

}  // namespace optiml::search
