// A small Gaussian-process regressor (Matern 5/2 kernel, fixed length scale, targets
// standardized) and expected improvement for minimization: the surrogate of the bayes strategy.
// Plain on purpose: an exact Cholesky solve over at most a few hundred measurements.
#pragma once

#include <vector>

#include "driver/base/cholesky.h"

namespace optiml::search {

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
