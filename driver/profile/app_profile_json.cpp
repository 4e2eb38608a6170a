#include "driver/profile/detail/app_profile_json.h"

namespace optiml::profile {

nlohmann::json to_json(const AppProfile& profile) {
    nlohmann::json kernels = nlohmann::json::array();
    for (std::size_t i = 0; i < profile.report.kernels.size(); ++i) {
        const analysis::KernelTime& kernel = profile.report.kernels[i];
        kernels.push_back({{"rank", i + 1},
                           {"name", kernel.name},
                           {"demangled_name", kernel.demangled_name},
                           {"short_name", kernel.short_name},
                           {"total_ns", kernel.total_ns},
                           {"launches", kernel.launches},
                           {"share", kernel.share},
                           {"cumulative_share", kernel.cumulative_share},
                           {"grid", kernel.grid},
                           {"block", kernel.block},
                           {"hot", kernel.hot},
                           {"suggestion", kernel.suggestion}});
    }
    return {{"schema", kAppProfileSchema},
            {"program", profile.program},
            {"exit_status", profile.exit.signaled ? -profile.exit.code : profile.exit.code},
            {"processes", profile.processes},
            {"devices", profile.devices},
            {"total_ns", profile.report.total_ns},
            {"hot_count", profile.report.hot_count},
            {"hot_share", profile.report.hot_share},
            {"capped", profile.report.capped},
            {"dropped_records", profile.dropped_records},
            {"incomplete_launches", profile.incomplete_launches},
            {"warnings", profile_warnings(profile)},
            {"kernels", std::move(kernels)}};
}

}  // namespace optiml::profile
