// Timing statistics the evaluator decides with: the median of repeated runs, a distribution-free
// confidence interval for it, and when a challenger beats the incumbent timed beside it.
// Pure host code, unit-tested in CI.
#pragma once

#include <vector>

namespace optiml::measure {

struct MedianEstimate {
    double median = 0.0;
    double ci_low = 0.0;  // ~95% confidence interval of the median (order statistics)
    double ci_high = 0.0;
    int runs = 0;
    double min = 0.0;
    double max = 0.0;
    // (ci_high - ci_low) / median: how precisely the median is known.
    double relative_width() const { return median > 0 ? (ci_high - ci_low) / median : 0.0; }
};

// `times` need not be sorted. The interval uses the binomial ranks n/2 -+ 0.98 sqrt(n), clamped.
MedianEstimate estimate_median(std::vector<double> times);

// A challenger wins only beyond the measured spread: its whole interval lies below the
// incumbent's, both measured in the same interleaved window.
bool beats(const MedianEstimate& challenger, const MedianEstimate& incumbent);

// Kernels this short measure launch overhead more than their own work.
inline constexpr double kLaunchBoundMs = 0.010;

}  // namespace optiml::measure
