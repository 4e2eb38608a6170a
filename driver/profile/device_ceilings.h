// The roofline's ceilings for one device: measured by OptiML's calibration kernels in a worker
// the first time, then read from <cache root>/devices/<device>.json (cached per device name and
// driver version: a new driver re-measures). The file is written atomically.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "driver/analysis/roofline.h"
#include "driver/measure/worker_client.h"
#include "driver/profile/profile_protocol.h"

namespace optiml::profile {

// Where the ceilings of `device` are cached under `cache_root`.
std::filesystem::path ceilings_path(const std::filesystem::path& cache_root,
                                    const measure::DeviceInfo& device);

analysis::DeviceCeilings to_ceilings(const Calibration& calibration);

// nullopt (with a line in `notes`) when calibration fails; never throws for GPU trouble.
// An empty `cache_root` measures every time.
std::optional<analysis::DeviceCeilings> device_ceilings(const measure::DeviceInfo& device,
                                                        const std::filesystem::path& cache_root,
                                                        const std::filesystem::path& scratch,
                                                        std::vector<std::string>& notes);

}  // namespace optiml::profile
