#include "driver/profile/app_profile_command.h"

#include "driver/analysis/hot_kernels.h"
#include "driver/base/atomic_write.h"
#include "driver/base/run_process.h"
#include "driver/profile/activity/activity_file.h"
#include "driver/profile/app_profile.h"
#include "driver/profile/detail/app_profile_json.h"
#include "driver/profile/profile_error.h"
#include "driver/profile/record_folder.h"
#include "driver/profile/run_program.h"

namespace fs = std::filesystem;

namespace optiml::profile {

int run_profile_app_command(const std::vector<std::string>& program_argv, const fs::path& json_out,
                            std::ostream& out, std::ostream& err) {
    if (program_argv.empty() || program_argv.front().empty()) {
        err << "optiml: error: no program to profile: name it after `--`, e.g. "
               "`optiml profile -- ./app --size 1024`\n";
        return 2;
    }
    AppProfile profile;
    try {
        const fs::path library = find_activity_library();
        const RecordFolder records("optiml-profile");
        analysis::HotKernelOptions options;
        options.target = fs::path(program_argv.front()).filename().string();
        out << "optiml: profiling `" << base::command_line(program_argv)
            << "` (every kernel launch recorded through CUPTI); its output follows\n";
        out.flush();
        profile = profile_app(program_argv, library, records.path(), options);
    } catch (const ProfileError& e) {
        err << "optiml: error: " << e.what() << "\n";
        return 1;
    }
    if (const std::string problem = profile_problem(profile); !problem.empty()) {
        err << "optiml: error: " << problem << "\n";
        return 1;
    }
    for (const std::string& warning : profile_warnings(profile)) {
        err << "optiml: warning: " << warning << "\n";
    }
    out << "\n" << analysis::to_markdown(profile.report);
    if (!json_out.empty()) {
        if (const std::string error =
                base::try_write_file_atomically(json_out, to_json(profile).dump(2) + "\n");
            !error.empty()) {
            err << "optiml: error: " << error << "; choose a writable --json path\n";
            return 1;
        }
        out << "\noptiml: wrote " << json_out.string() << "\n";
    }
    return 0;
}

}  // namespace optiml::profile
