// A private folder (mkdtemp) for the files a profiled or captured program writes, removed with
// everything in it when the command ends.
#pragma once

#include <filesystem>
#include <string>

#include "driver/base/scratch_dir.h"
#include "driver/profile/profile_error.h"

namespace optiml::profile {

class RecordFolder {
  public:
    // `prefix` names the folder in the temporary directory: "optiml-profile".
    explicit RecordFolder(const std::string& prefix) : folder_(prefix) {
        if (folder_.path().empty()) throw ProfileError("the kernel records: " + folder_.error());
    }
    const std::filesystem::path& path() const { return folder_.path(); }

  private:
    base::ScratchDir folder_;
};

}  // namespace optiml::profile
