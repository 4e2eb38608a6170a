// Runs the calibration kernels (calibration_kernels.h) on one device and reports its ceilings:
// the best of several runs, each timed with events. Worker-only (CUDA).
#pragma once

#include <string>

#include "driver/profile/profile_protocol.h"

namespace optiml::profile {

// `image_path`: the calibration CUBIN the driver compiled for this device's architecture.
Calibration run_calibration(int device, const std::string& image_path);

}  // namespace optiml::profile
