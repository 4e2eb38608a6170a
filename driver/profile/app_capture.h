// Whole-program capture (`optiml capture -- ./app args`): runs a user's program as profile_app()
// does, with liboptiml-activity.so also capturing the first launch of each kernel (geometry,
// argument bytes, the allocations pointers point into, optionally snapshots of their data) and
// the shape of every later one (activity/capture_file.h), so the hot kernels' real launches, and
// the sizes they ran at, can become specs (driver/init).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "driver/profile/activity/capture_file.h"
#include "driver/profile/app_profile.h"

namespace optiml::profile {

struct AppCapture {
    AppProfile profile;  // the kernels by GPU time, the hot set, how the program ended
    // The first launch of each kernel (by name), from the first process that launched it.
    std::vector<activity::CapturedLaunch> launches;
    std::vector<std::string> capture_errors;  // "pid N: why" for processes where capture failed
};

// Runs `program` with the library injected and capturing. Records go to `output_dir` (its earlier
// record files are removed first); with `snapshots`, the data of every pointer argument's
// allocation at each kernel's first launch goes to `output_dir`/snapshots, up to
// `snapshot_limit` bytes per allocation. Throws ProfileError as profile_app() does, or when a
// capture file is unreadable.
AppCapture capture_app(const std::vector<std::string>& program,
                       const std::filesystem::path& activity_library,
                       const std::filesystem::path& output_dir, bool snapshots,
                       std::uint64_t snapshot_limit = activity::kDefaultSnapshotLimit,
                       const analysis::HotKernelOptions& options = {});

// The captured launch of the kernel CUPTI names `name`, or nullptr.
const activity::CapturedLaunch* captured_launch(const AppCapture& capture, const std::string& name);

// Why `capture` has no usable result (profile_problem(), or no launch captured), naming the cause
// and the fix; "" when it can be used.
std::string capture_problem(const AppCapture& capture);

}  // namespace optiml::profile
