// Hardware counters (Range Profiler) and stall samples by line (PC sampling) of one launch of a
// candidate in the worker's session, on the trial-1 inputs with a cold L2. Not verified here:
// only evaluated variants get profiled. Runs in `optiml-worker` only.
#pragma once

#include "driver/measure/gpu_session.h"
#include "driver/profile/profile_protocol.h"

namespace optiml::profile {

ProfileResult profile_launch(measure::GpuSession& session, const measure::LaunchSpec& launch,
                             const ProfileRequest& request);

}  // namespace optiml::profile
