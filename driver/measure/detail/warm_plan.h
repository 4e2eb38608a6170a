// The warm timing condition: each kernel launched back to back with no flush, as a loop in a
// program launches it, so it finds in L2 what its previous launch left there. The worker times
// bursts of launches between two events (warm_timing.h); this is the host-side plan: how many
// launches a burst holds and when enough bursts were timed. Pure host code, unit-tested in CI.
#pragma once

#include <vector>

#include "driver/measure/protocol.h"

namespace optiml::measure {

// A burst lasts about this long: long enough that the events' own resolution and the gap before
// the first launch vanish, short enough that warm timing costs little beside the cold runs.
inline constexpr double kWarmBurstMs = 0.5;
inline constexpr int kMinWarmBurst = 2;
inline constexpr int kMaxWarmBurst = 256;

struct WarmPlan {
    int burst = kMinWarmBurst;  // timed launches per burst (after one untimed launch)
    int min_rounds = 5;         // bursts of each kernel before the interval may stop it
    int max_rounds = 50;
    double relative_ci = 0.01;  // as TimingSpec's, on the per-launch median
    double cap_ms = 250.0;      // per kernel: timed burst time after which it stops anyway
};

// The plan for kernels whose shortest cold median is `cold_ms`: one burst size for all of them
// (a fair comparison, the same loop for each), bounded by `timing`'s cap and interval.
WarmPlan plan_warm(double cold_ms, const TimingSpec& timing);

// Whether every kernel's warm bursts are enough: `per_launch_ms[k]` holds one per-launch time
// (burst time / burst) per round of kernel k.
bool warm_settled(const std::vector<std::vector<double>>& per_launch_ms, const WarmPlan& plan);

}  // namespace optiml::measure
