// The Cholesky factor of a symmetric positive-definite matrix (A = L L^T) and its two triangular
// solves: what the search's Gaussian process and the evidence's least-squares fit both need.
// Plain on purpose: the matrices here are at most a few hundred wide.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace optiml::base {

class CholeskyFactor {
  public:
    // `pivot(sum, original)` decides each diagonal: `sum` is a_ii less the squares of the row's
    // earlier entries of L, `original` is a_ii; it returns the value to take the square root
    // of, or nullopt to give up (the matrix is singular to the caller's tolerance).
    using Pivot = std::function<std::optional<double>(double sum, double original)>;

    // Factors `a`, row-major n x n (only its lower triangle is read). Nullopt where `pivot`
    // gave up.
    static std::optional<CholeskyFactor> factor(const std::vector<double>& a, std::size_t n,
                                                const Pivot& pivot);

    // b := L^-1 b, then b := L^-T b; solve() does both (b := A^-1 b).
    void solve_lower(std::vector<double>& b) const;
    void solve_upper(std::vector<double>& b) const;
    void solve(std::vector<double>& b) const;

    std::size_t size() const { return n_; }

  private:
    std::size_t n_ = 0;
    std::vector<double> lower_;  // row-major n x n, zero above the diagonal
};

}  // namespace optiml::base
