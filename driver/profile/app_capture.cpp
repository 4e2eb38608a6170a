#include "driver/profile/app_capture.h"

#include <algorithm>
#include <set>

#include "driver/profile/detail/activity_reader.h"
#include "driver/profile/profile_error.h"

namespace fs = std::filesystem;

namespace optiml::profile {

namespace {

constexpr std::string_view kCaptureFilePrefix = "capture-";
constexpr std::string_view kCaptureFileSuffix = ".json";

std::vector<fs::path> capture_files_in(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && name.starts_with(kCaptureFilePrefix) &&
            name.ends_with(kCaptureFileSuffix))
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

AppCapture capture_app(const std::vector<std::string>& program, const fs::path& activity_library,
                       const fs::path& output_dir, bool snapshots, std::uint64_t snapshot_limit,
                       const analysis::HotKernelOptions& options) {
    if (!fs::is_directory(output_dir)) {
        throw ProfileError("the record folder " + output_dir.string() + " does not exist");
    }
    for (const fs::path& stale : capture_files_in(output_dir)) fs::remove(stale);
    const fs::path snapshot_dir = fs::absolute(output_dir) / "snapshots";
    fs::remove_all(snapshot_dir);
    Environment environment = {
        {activity::kCaptureOutputVariable,
         (fs::absolute(output_dir) /
          (std::string(kCaptureFilePrefix) + "%p" + std::string(kCaptureFileSuffix)))
             .string()}};
    if (snapshots) {
        fs::create_directories(snapshot_dir);
        environment.emplace_back(activity::kSnapshotFolderVariable, snapshot_dir.string());
        environment.emplace_back(activity::kSnapshotLimitVariable, std::to_string(snapshot_limit));
    }
    AppCapture capture;
    capture.profile = profile_app(program, activity_library, output_dir, options, environment);
    std::set<std::string> seen;
    for (const fs::path& file : capture_files_in(output_dir)) {
        activity::CaptureFile records = read_capture_file(file);
        if (!records.error.empty()) {
            capture.capture_errors.push_back("pid " + std::to_string(records.pid) + ": " +
                                             records.error);
        }
        for (activity::CapturedLaunch& launch : records.launches) {
            if (seen.insert(launch.name).second) capture.launches.push_back(std::move(launch));
        }
    }
    return capture;
}

const activity::CapturedLaunch* captured_launch(const AppCapture& capture,
                                                const std::string& name) {
    for (const activity::CapturedLaunch& launch : capture.launches)
        if (launch.name == name) return &launch;
    return nullptr;
}

std::string capture_problem(const AppCapture& capture) {
    if (std::string problem = profile_problem(capture.profile); !problem.empty()) return problem;
    if (!capture.launches.empty()) return "";
    std::string errors;
    for (const std::string& error : capture.capture_errors) {
        errors += (errors.empty() ? "" : "; ") + error;
    }
    if (errors.empty()) {
        errors =
            "the library wrote no capture file; use the liboptiml-activity.so installed "
            "with this optiml";
    }
    return "kernels ran but no launch was captured (" + errors + ")";
}

}  // namespace optiml::profile
