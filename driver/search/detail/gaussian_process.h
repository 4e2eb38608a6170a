// A small Gaussian-process regressor (Matern 5/2 kernels, fixed length scale, targets
// standardized) and expected improvement for minimization: the surrogate of the bayes strategy.
// Plain on purpose: an exact Cholesky solve over at most a few hundred measurements.
//
// The kernel mixes one Matern over all parameters with the mean of one per parameter
// (kAdditiveShare of it): with the joint kernel alone, what the extremes design showed of each
// parameter on its own did not carry to the best configuration's neighbours, and on the H200's
// tiled_matmul recording auto took 16 evaluations from the default where greedy_ils took 11.5
// (bench/results/search-efficiency-2026-12-06.md has the medians with and without it).
#pragma once

#include <vector>

#include "driver/base/cholesky.h"

namespace optiml::search {

inline constexpr double kAdditiveShare = 0.8;

class GaussianProcess {
  public:
    GaussianProcess(double length_scale, double noise) : length_(length_scale), noise_(noise) {}

    // Points x (all the same dimension) with values y; at least one point.
    void fit(std::vector<std::vector<double>> x, const std::vector<double>& y);

    struct Prediction {
        double mean = 0.0;
        double stddev = 0.0;
    };
    Prediction predict(const std::vector<double>& x) const;

  private:
    double kernel(const std::vector<double>& a, const std::vector<double>& b) const;

    double length_;
    double noise_;
    std::vector<std::vector<double>> x_;
    base::CholeskyFactor factor_;  // of K + noise I
    std::vector<double> alpha_;    // K^-1 (y - mean) / scale
    double mean_ = 0.0;
    double scale_ = 1.0;
};

// Expected improvement below `best` of a normal prediction (0 when stddev is 0 and mean >= best).
double expected_improvement(double mean, double stddev, double best);

}  // namespace optiml::search
