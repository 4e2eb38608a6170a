// The driver's side of the profiler's worker operations (worker_main.cpp): a variant's counters
// and stall samples, and the device's calibration. Failures come back in the result's message.
#pragma once

#include <chrono>
#include <filesystem>

#include "driver/measure/worker_client.h"
#include "driver/profile/profile_protocol.h"

namespace optiml::profile {

// Counters and stall samples of one launch (not verified: profile evaluated variants).
ProfileResult profile_variant(measure::RemoteSession& session, const measure::LaunchSpec& launch,
                              const ProfileRequest& request, std::chrono::milliseconds timeout);

// Runs OptiML's calibration kernels (`image`, a CUBIN of calibration_source()) on `device`.
Calibration calibrate(measure::WorkerProcess& process, int device,
                      const std::filesystem::path& image, std::chrono::milliseconds timeout);

}  // namespace optiml::profile
