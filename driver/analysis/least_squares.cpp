#include "driver/analysis/detail/least_squares.h"

#include <cmath>

#include "driver/base/cholesky.h"

namespace optiml::analysis {

namespace {

// A pivot this small relative to its column's own squared norm means the column is a linear
// combination of the earlier ones (up to rounding).
constexpr double kDependentPivot = 1e-10;

double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
    return sum;
}

}  // namespace

std::optional<LeastSquaresFit> fit_least_squares(
    const std::vector<const std::vector<double>*>& columns, const std::vector<double>& target) {
    const std::size_t k = columns.size();
    // Gram matrix G = X^T X (lower triangle is enough) and right-hand side X^T y.
    std::vector<double> gram(k * k, 0.0);
    LeastSquaresFit fit;
    fit.coefficients.assign(k, 0.0);
    for (std::size_t i = 0; i < k; ++i) {
        for (std::size_t j = 0; j <= i; ++j) gram[i * k + j] = dot(*columns[i], *columns[j]);
        fit.coefficients[i] = dot(*columns[i], target);
    }
    const auto factor = base::CholeskyFactor::factor(
        gram, k, [](double sum, double own_norm) -> std::optional<double> {
            if (!(sum > kDependentPivot * own_norm) || own_norm <= 0.0) return std::nullopt;
            return sum;
        });
    if (!factor) return std::nullopt;
    factor->solve(fit.coefficients);  // G b = X^T y
    fit.residual = target;
    for (std::size_t c = 0; c < k; ++c) {
        for (std::size_t r = 0; r < target.size(); ++r) {
            fit.residual[r] -= fit.coefficients[c] * (*columns[c])[r];
        }
    }
    fit.residual_sum_of_squares = dot(fit.residual, fit.residual);
    return fit;
}

}  // namespace optiml::analysis
