#include "driver/measure/statistics.h"

#include <algorithm>
#include <cmath>

namespace optiml::measure {

MedianEstimate estimate_median(std::vector<double> times) {
    MedianEstimate estimate;
    if (times.empty()) return estimate;
    std::sort(times.begin(), times.end());
    const std::size_t n = times.size();
    estimate.runs = static_cast<int>(n);
    estimate.min = times.front();
    estimate.max = times.back();
    estimate.median = n % 2 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
    const double half_width = 0.98 * std::sqrt(static_cast<double>(n));
    const double center = static_cast<double>(n) / 2.0;
    const auto low = static_cast<std::size_t>(std::max(0.0, std::floor(center - half_width)));
    const auto high = static_cast<std::size_t>(
        std::min(static_cast<double>(n - 1), std::ceil(center + half_width) - 1.0));
    estimate.ci_low = times[std::min(low, n - 1)];
    estimate.ci_high = times[std::max(high, std::min(low, n - 1))];
    return estimate;
}

bool beats(const MedianEstimate& challenger, const MedianEstimate& incumbent) {
    return challenger.runs > 0 && incumbent.runs > 0 && challenger.ci_high < incumbent.ci_low;
}

}  // namespace optiml::measure
