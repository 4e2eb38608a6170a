#include "driver/profile/app_profile.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "driver/profile/activity/activity_file.h"
#include "driver/profile/detail/activity_reader.h"
#include "driver/profile/profile_error.h"

namespace fs = std::filesystem;

namespace optiml::profile {

namespace {

constexpr const char* kInjectionVariable = "CUDA_INJECTION64_PATH";
constexpr const char* kLibraryVariable = "OPTIML_ACTIVITY_LIBRARY";
constexpr std::string_view kFilePrefix = "activity-";
constexpr std::string_view kFileSuffix = ".json";

bool is_activity_file(const fs::path& path) {
    const std::string name = path.filename().string();
    return name.starts_with(kFilePrefix) && name.ends_with(kFileSuffix);
}

std::vector<fs::path> activity_files_in(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
        if (entry.is_regular_file() && is_activity_file(entry.path()))
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

struct TimedLaunch {
    std::uint64_t start_ns = 0;
    analysis::KernelActivity activity;
};

// A record flushed while its kernel ran has no end (or no start) timestamp.
bool completed(const activity::LaunchRecord& launch) {
    return launch.start_ns != 0 && launch.end_ns != 0 && launch.end_ns >= launch.start_ns;
}

std::string quoted_program(const AppProfile& profile) {
    return "'" + (profile.program.empty() ? std::string("the program") : profile.program.front()) +
           "'";
}

const char* const kGpuQuestion =
    "is it a CUDA program, and does it run on a GPU here? (`optiml devices` lists this "
    "machine's GPUs)";

}  // namespace

AppProfile profile_app(const std::vector<std::string>& program, const fs::path& activity_library,
                       const fs::path& output_dir, const analysis::HotKernelOptions& options,
                       const Environment& environment) {
    if (!fs::is_regular_file(activity_library)) {
        throw ProfileError("the profiling library " + activity_library.string() +
                           " does not exist; reinstall OptiML or set " + kLibraryVariable +
                           " to liboptiml-activity.so");
    }
    if (!fs::is_directory(output_dir)) {
        throw ProfileError("the record folder " + output_dir.string() + " does not exist");
    }
    for (const fs::path& stale : activity_files_in(output_dir)) fs::remove(stale);

    AppProfile profile;
    profile.program = program;
    profile.activity_library = fs::absolute(activity_library);
    const std::string output_template =
        (fs::absolute(output_dir) / (std::string(kFilePrefix) + "%p" + std::string(kFileSuffix)))
            .string();
    Environment variables = environment;
    variables.emplace_back(kInjectionVariable, profile.activity_library.string());
    variables.emplace_back(activity::kOutputVariable, output_template);
    profile.exit = run_program(program, variables);

    std::vector<TimedLaunch> timed;
    std::set<std::uint32_t> devices;
    for (const fs::path& file : activity_files_in(output_dir)) {
        const activity::ActivityFile records = read_activity_file(file);
        ++profile.processes;
        profile.dropped_records += records.dropped_records;
        if (!records.error.empty()) {
            profile.recording_errors.push_back("pid " + std::to_string(records.pid) + ": " +
                                               records.error);
        }
        for (const activity::LaunchRecord& launch : records.launches) {
            if (!completed(launch)) {
                ++profile.incomplete_launches;
                continue;
            }
            devices.insert(launch.device);
            timed.push_back({launch.start_ns,
                             {launch.name, launch.demangled_name, launch.end_ns - launch.start_ns,
                              launch.grid, launch.block}});
        }
    }
    // Start order makes "the first launch geometry seen" well defined across processes.
    std::stable_sort(timed.begin(), timed.end(), [](const TimedLaunch& a, const TimedLaunch& b) {
        return a.start_ns < b.start_ns;
    });
    for (TimedLaunch& launch : timed) profile.launches.push_back(std::move(launch.activity));
    profile.devices.assign(devices.begin(), devices.end());
    profile.report = analysis::select_hot_kernels(profile.launches, options);
    return profile;
}

std::string profile_problem(const AppProfile& profile) {
    const std::string program = quoted_program(profile);
    const std::size_t recorded = profile.launches.size();
    if (profile.exit.signaled) {
        return program + " " + describe(profile.exit) +
               "; fix the crash (its output is above) and profile a run that completes";
    }
    if (profile.exit.code != 0) {
        if (recorded == 0) {
            return program + " " + describe(profile.exit) +
                   " and no CUDA kernels were recorded: " + kGpuQuestion +
                   "; its own output above says why it failed";
        }
        return program + " " + describe(profile.exit) + " after " + std::to_string(recorded) +
               " kernel launches; profile a run that succeeds (its output above says why it "
               "failed)";
    }
    if (profile.processes == 0) {
        const std::string library = profile.activity_library.string();
        return "no CUDA kernels were recorded: the profiling library never ran in " + program +
               ". Either the program never initialized CUDA (" + kGpuQuestion +
               "), or the CUDA driver could not load " + library + " (`ldd " + library +
               "` shows what it lacks)";
    }
    if (recorded == 0 && !profile.recording_errors.empty()) {
        std::string errors;
        for (const std::string& error : profile.recording_errors) {
            errors += (errors.empty() ? "" : "; ") + error;
        }
        return "no CUDA kernels were recorded: CUPTI could not trace " + program + " (" + errors +
               "); another profiler (Nsight Systems, Nsight Compute, a framework's own "
               "profiler) may be using CUPTI: run the program without it";
    }
    if (recorded == 0 && profile.incomplete_launches > 0) {
        return "no kernel finished before " + program + " exited (" +
               std::to_string(profile.incomplete_launches) +
               " launches without an end time); let the program synchronize with the GPU "
               "(cudaDeviceSynchronize) before it exits";
    }
    if (recorded == 0) {
        return "no CUDA kernels were recorded: " + program +
               " initialized CUDA but launched no kernel; give it arguments that make it do its "
               "GPU work";
    }
    return "";
}

std::vector<std::string> profile_warnings(const AppProfile& profile) {
    std::vector<std::string> warnings;
    if (profile.dropped_records > 0) {
        warnings.push_back(std::to_string(profile.dropped_records) +
                           " kernel records were dropped by CUPTI (out of buffer space); the "
                           "times shown understate those kernels");
    }
    if (profile.incomplete_launches > 0) {
        warnings.push_back(std::to_string(profile.incomplete_launches) +
                           " kernel launches were still running when the program exited and are "
                           "not counted; synchronize before exit to count them");
    }
    if (!profile.launches.empty()) {
        for (const std::string& error : profile.recording_errors) {
            warnings.push_back("CUPTI could not trace one process (" + error +
                               "); its kernels are missing");
        }
    }
    return warnings;
}

std::vector<fs::path> activity_library_candidates(const fs::path& executable_dir) {
    const fs::path name = OPTIML_ACTIVITY_LIBRARY_NAME;
    std::vector<fs::path> candidates;
    for (const fs::path& path :
         {executable_dir / name, executable_dir / OPTIML_ACTIVITY_BIN_TO_LIBDIR / name,
          executable_dir / ".." / "lib" / name, fs::path(OPTIML_ACTIVITY_BUILD_PATH)}) {
        const fs::path normal = path.lexically_normal();
        if (std::find(candidates.begin(), candidates.end(), normal) == candidates.end()) {
            candidates.push_back(normal);
        }
    }
    return candidates;
}

fs::path find_activity_library() {
    if (const char* named = std::getenv(kLibraryVariable); named != nullptr && *named != '\0') {
        if (fs::is_regular_file(named)) return named;
        throw ProfileError(std::string(kLibraryVariable) + " is set to " + named +
                           ", which is not a file; point it at liboptiml-activity.so or unset it");
    }
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    std::string looked;
    for (const fs::path& candidate : activity_library_candidates(self.parent_path())) {
        if (fs::is_regular_file(candidate, error)) return candidate;
        looked += (looked.empty() ? "" : ", ") + candidate.string();
    }
    throw ProfileError(std::string(OPTIML_ACTIVITY_LIBRARY_NAME) + " was not found (looked at " +
                       looked + "); reinstall OptiML (`cmake --install` puts it in the lib " +
                       "folder beside bin/optiml) or set " + kLibraryVariable + " to its path");
}

}  // namespace optiml::profile
