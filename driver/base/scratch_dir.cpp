#include "driver/base/scratch_dir.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace optiml::base {

ScratchDir::ScratchDir(const std::string& prefix) {
    std::error_code ec;
    const std::filesystem::path temporary = std::filesystem::temp_directory_path(ec);
    if (ec) {
        error_ = "no temporary directory: " + ec.message() + "; set TMPDIR to a writable folder";
        return;
    }
    std::string pattern = (temporary / (prefix + "-XXXXXX")).string();
    if (mkdtemp(pattern.data()) == nullptr) {
        error_ = "cannot create a folder in " + temporary.string() + ": " + std::strerror(errno) +
                 "; set TMPDIR to a writable folder";
        return;
    }
    path_ = pattern;
}

ScratchDir::~ScratchDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
}

}  // namespace optiml::base
