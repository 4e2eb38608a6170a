#include "driver/profile/app_profile_command.h"

#include <cstdlib>
#include <cstring>

#include "driver/analysis/hot_kernels.h"
#include "driver/profile/activity/activity_file.h"
#include "driver/profile/app_profile.h"
#include "driver/profile/app_profile_json.h"
#include "driver/profile/profile_error.h"

namespace fs = std::filesystem;

namespace optiml::profile {

namespace {

// A private folder for the record files, removed when the command ends.
class RecordFolder {
  public:
    RecordFolder() {
        std::string pattern = (fs::temp_directory_path() / "optiml-profile-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr) {
            throw ProfileError("cannot create a folder for the kernel records in " +
                               fs::temp_directory_path().string() + ": " + std::strerror(errno) +
                               "; set TMPDIR to a writable folder");
        }
        path_ = pattern;
    }
    ~RecordFolder() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    RecordFolder(const RecordFolder&) = delete;
    RecordFolder& operator=(const RecordFolder&) = delete;
    const fs::path& path() const { return path_; }

  private:
    fs::path path_;
};

std::string command_line(const std::vector<std::string>& argv) {
    std::string line;
    for (const std::string& argument : argv) line += (line.empty() ? "" : " ") + argument;
    return line;
}

}  // namespace

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
        const RecordFolder records;
        analysis::HotKernelOptions options;
        options.target = fs::path(program_argv.front()).filename().string();
        out << "optiml: profiling `" << command_line(program_argv)
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
        std::string error;
        if (!activity::write_file_atomically(json_out.string(), to_json(profile).dump(2) + "\n",
                                             error)) {
            err << "optiml: error: " << error << "; choose a writable --json path\n";
            return 1;
        }
        out << "\noptiml: wrote " << json_out.string() << "\n";
    }
    return 0;
}

}  // namespace optiml::profile
