// Whole-program profiling (`optiml profile -- ./app args`): runs a user's CUDA program with
// liboptiml-activity.so injected through the CUDA driver (CUDA_INJECTION64_PATH), reads the kernel
// launches it recorded, and ranks the kernels by GPU time (analysis/hot_kernels.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "driver/analysis/hot_kernels.h"
#include "driver/profile/run_program.h"

namespace optiml::profile {

struct AppProfile {
    std::vector<std::string> program;           // the argv that ran
    std::filesystem::path activity_library;     // the injected library
    ProgramExit exit;                           // how the program ended
    std::size_t processes = 0;                  // processes that initialized CUDA and wrote records
    std::vector<std::string> recording_errors;  // CUPTI failures, "pid N: why"
    std::uint64_t dropped_records = 0;          // CUPTI ran out of buffer space
    std::uint64_t incomplete_launches = 0;      // flushed before their kernel ended: not counted
    std::vector<std::uint32_t> devices;         // that ran the recorded kernels, ascending
    std::vector<analysis::KernelActivity> launches;  // completed launches, in start order
    analysis::HotKernelReport report;
};

// Runs `program` with the library injected; each process that initializes CUDA writes its
// records to `output_dir`/activity-<pid>.json (files of an earlier run there are removed first).
// Throws ProfileError when the library or output_dir is missing, the program cannot be started,
// or a record file is unreadable. A program that fails or records nothing is not an exception:
// profile_problem() says what went wrong. `environment` is added to the program's (capture_app()
// asks the library for more through it).
using Environment = std::vector<std::pair<std::string, std::string>>;
AppProfile profile_app(const std::vector<std::string>& program,
                       const std::filesystem::path& activity_library,
                       const std::filesystem::path& output_dir,
                       const analysis::HotKernelOptions& options = {},
                       const Environment& environment = {});

// Why `profile` has no usable result, naming the cause and the fix; "" when its report can be
// used (the program exited with status 0 and at least one kernel finished).
std::string profile_problem(const AppProfile& profile);

// What makes a usable report less than exact: dropped records, launches without timestamps,
// processes where CUPTI failed.
std::vector<std::string> profile_warnings(const AppProfile& profile);

// Where liboptiml-activity.so may be, in search order, for an `optiml` in `executable_dir`:
// beside it (build trees that put both in one folder), the install's lib directory beside its
// bin directory, ../lib, and the build tree this optiml was built in.
std::vector<std::filesystem::path> activity_library_candidates(
    const std::filesystem::path& executable_dir);

// $OPTIML_ACTIVITY_LIBRARY when set (it must exist), else the first existing candidate for the
// running executable. Throws ProfileError listing where it looked.
std::filesystem::path find_activity_library();

}  // namespace optiml::profile
