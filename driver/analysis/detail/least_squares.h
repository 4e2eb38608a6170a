// A small least-squares solve for counter selection (k <= 10 columns): normal equations and a
// Cholesky factorization. Columns are expected centred (no intercept term is fitted).
#pragma once

#include <optional>
#include <vector>

namespace optiml::analysis {

struct LeastSquaresFit {
    std::vector<double> coefficients;  // one per column, in the order given
    std::vector<double> residual;      // target - columns * coefficients
    double residual_sum_of_squares = 0.0;
};

// Empty when the columns are (numerically) linearly dependent: a column adds nothing the others
// do not already span. All columns must have the target's length.
std::optional<LeastSquaresFit> fit_least_squares(
    const std::vector<const std::vector<double>*>& columns, const std::vector<double>& target);

}  // namespace optiml::analysis
