#include "driver/search/detail/gaussian_process.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace optiml::search {
// Matern 5/2 over all parameters together (their interactions), mixed with the mean of one
// Matern 5/2 per parameter (each parameter's own effect, carried across the others' values: a
// tile size that helped at one block size is expected to help at another).
double GaussianProcess::kernel(const std::vector<double>& a, const std::vector<double>& b) const {
    const auto matern = [&](double squared) {
        const double r = std::sqrt(5.0 * squared) / length_;
        return (1.0 + r + r * r / 3.0) * std::exp(-r);
    };
    double squared = 0.0, each = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double d2 = (a[i] - b[i]) * (a[i] - b[i]);
        squared += d2;
        each += matern(d2);
    }
    return (1.0 - kAdditiveShare) * matern(squared) +
           kAdditiveShare * each / static_cast<double>(std::max<std::size_t>(1, a.size()));
}

void GaussianProcess::fit(std::vector<std::vector<double>> x, const std::vector<double>& y) {
    x_ = std::move(x);
    const std::size_t n = x_.size();
    mean_ = std::accumulate(y.begin(), y.end(), 0.0) / static_cast<double>(n);
    double variance = 0.0;
    for (const double v : y) variance += (v - mean_) * (v - mean_);
    scale_ = std::sqrt(variance / static_cast<double>(n));
    if (!(scale_ > 1e-12)) scale_ = 1.0;

    std::vector<double> covariance(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j <= i; ++j)
            covariance[i * n + j] = kernel(x_[i], x_[j]) + (i == j ? noise_ : 0.0);
    // Duplicate points make K singular up to the noise; the floor keeps it factorable.
    factor_ = *base::CholeskyFactor::factor(
        covariance, n,
        [](double sum, double) -> std::optional<double> { return std::max(sum, 1e-12); });
    alpha_.resize(n);
    for (std::size_t i = 0; i < n; ++i) alpha_[i] = (y[i] - mean_) / scale_;
    factor_.solve(alpha_);
}

GaussianProcess::Prediction GaussianProcess::predict(const std::vector<double>& x) const {
    const std::size_t n = x_.size();
    std::vector<double> k(n);
    for (std::size_t i = 0; i < n; ++i) k[i] = kernel(x, x_[i]);
    double mean = 0.0;
    for (std::size_t i = 0; i < n; ++i) mean += k[i] * alpha_[i];
    factor_.solve_lower(k);
    double explained = 0.0;
    for (const double v : k) explained += v * v;
    const double variance = std::max(0.0, 1.0 - explained);
    return {mean_ + scale_ * mean, scale_ * std::sqrt(variance)};
}

double expected_improvement(double mean, double stddev, double best) {
    if (!(stddev > 0.0)) return std::max(0.0, best - mean);
    const double z = (best - mean) / stddev;
    const double cdf = 0.5 * std::erfc(-z / std::sqrt(2.0));
    const double pdf = std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI);
    return (best - mean) * cdf + stddev * pdf;
}

}  // namespace optiml::search
