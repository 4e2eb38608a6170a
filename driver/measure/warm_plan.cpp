#include "driver/measure/detail/warm_plan.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "driver/measure/statistics.h"

namespace optiml::measure {

WarmPlan plan_warm(double cold_ms, const TimingSpec& timing) {
    WarmPlan plan;
    // Warm runs are no slower than cold ones, so a burst sized on the cold time is at most
    // kWarmBurstMs; a kernel too short to know gets the longest burst.
    const double launches = cold_ms > 0.0 ? std::ceil(kWarmBurstMs / cold_ms) : kMaxWarmBurst;
    plan.burst =
        static_cast<int>(std::clamp(launches, double{kMinWarmBurst}, double{kMaxWarmBurst}));
    plan.relative_ci = timing.relative_ci;
    // A quarter of the cold runs' cap: the second condition must not double a long kernel's cost.
    plan.cap_ms = timing.cap_ms / 4.0;
    plan.max_rounds = std::max(plan.min_rounds, std::min(plan.max_rounds, timing.max_runs));
    return plan;
}

bool warm_settled(const std::vector<std::vector<double>>& per_launch_ms, const WarmPlan& plan) {
    for (const std::vector<double>& times : per_launch_ms) {
        const int rounds = static_cast<int>(times.size());
        if (rounds >= plan.max_rounds) continue;
        if (rounds < 3) return false;  // a median and an interval need a few
        const double timed_ms = std::accumulate(times.begin(), times.end(), 0.0) * plan.burst;
        const bool narrow = rounds >= plan.min_rounds &&
                            estimate_median(times).relative_width() <= plan.relative_ci;
        if (!narrow && timed_ms < plan.cap_ms) return false;
    }
    return true;
}

}  // namespace optiml::measure
