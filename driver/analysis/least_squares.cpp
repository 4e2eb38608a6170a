#include "driver/analysis/detail/least_squares.h"

#include <cmath>

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
    std::vector<std::vector<double>> lower(k, std::vector<double>(k, 0.0));
    std::vector<double> rhs(k, 0.0);
    for (std::size_t i = 0; i < k; ++i) {
        for (std::size_t j = 0; j <= i; ++j) lower[i][j] = dot(*columns[i], *columns[j]);
        rhs[i] = dot(*columns[i], target);
    }
    // In-place Cholesky: G = L L^T.
    for (std::size_t i = 0; i < k; ++i) {
        const double own_norm = lower[i][i];
        for (std::size_t j = 0; j <= i; ++j) {
            double sum = lower[i][j];
            for (std::size_t m = 0; m < j; ++m) sum -= lower[i][m] * lower[j][m];
            if (i == j) {
                if (!(sum > kDependentPivot * own_norm) || own_norm <= 0.0) return std::nullopt;
                lower[i][i] = std::sqrt(sum);
            } else {
                lower[i][j] = sum / lower[j][j];
            }
        }
    }
    // Solve L z = rhs, then L^T b = z.
    std::vector<double> z(k, 0.0);
    for (std::size_t i = 0; i < k; ++i) {
        double sum = rhs[i];
        for (std::size_t m = 0; m < i; ++m) sum -= lower[i][m] * z[m];
        z[i] = sum / lower[i][i];
    }
    LeastSquaresFit fit;
    fit.coefficients.assign(k, 0.0);
    for (std::size_t i = k; i-- > 0;) {
        double sum = z[i];
        for (std::size_t m = i + 1; m < k; ++m) sum -= lower[m][i] * fit.coefficients[m];
        fit.coefficients[i] = sum / lower[i][i];
    }
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
