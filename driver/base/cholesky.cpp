#include "driver/base/cholesky.h"

#include <cmath>

namespace optiml::base {

std::optional<CholeskyFactor> CholeskyFactor::factor(const std::vector<double>& a, std::size_t n,
                                                     const Pivot& pivot) {
    CholeskyFactor f;
    f.n_ = n;
    f.lower_.assign(n * n, 0.0);
    std::vector<double>& l = f.lower_;
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j <= i; ++j) {
            double sum = a[i * n + j];
            for (std::size_t k = 0; k < j; ++k) sum -= l[i * n + k] * l[j * n + k];
            if (i != j) {
                l[i * n + j] = sum / l[j * n + j];
                continue;
            }
            const std::optional<double> diagonal = pivot(sum, a[i * n + i]);
            if (!diagonal) return std::nullopt;
            l[i * n + i] = std::sqrt(*diagonal);
        }
    }
    return f;
}

void CholeskyFactor::solve_lower(std::vector<double>& b) const {
    for (std::size_t i = 0; i < n_; ++i) {
        double sum = b[i];
        for (std::size_t k = 0; k < i; ++k) sum -= lower_[i * n_ + k] * b[k];
        b[i] = sum / lower_[i * n_ + i];
    }
}

void CholeskyFactor::solve_upper(std::vector<double>& b) const {
    for (std::size_t i = n_; i-- > 0;) {
        double sum = b[i];
        for (std::size_t k = i + 1; k < n_; ++k) sum -= lower_[k * n_ + i] * b[k];
        b[i] = sum / lower_[i * n_ + i];
    }
}

void CholeskyFactor::solve(std::vector<double>& b) const {
    solve_lower(b);
    solve_upper(b);
}

}  // namespace optiml::base
