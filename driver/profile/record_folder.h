// A private folder (mkdtemp) for the files a profiled or captured program writes, removed with
// everything in it when the command ends.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "driver/profile/profile_error.h"

namespace optiml::profile {

class RecordFolder {
  public:
    // `prefix` names the folder in the temporary directory: "optiml-profile".
    explicit RecordFolder(const std::string& prefix) {
        std::string pattern =
            (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
        if (mkdtemp(pattern.data()) == nullptr) {
            throw ProfileError("cannot create a folder for the kernel records in " +
                               std::filesystem::temp_directory_path().string() + ": " +
                               std::strerror(errno) + "; set TMPDIR to a writable folder");
        }
        path_ = pattern;
    }
    ~RecordFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    RecordFolder(const RecordFolder&) = delete;
    RecordFolder& operator=(const RecordFolder&) = delete;
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

}  // namespace optiml::profile
