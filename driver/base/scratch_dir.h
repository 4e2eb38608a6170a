// A private temporary folder (mkdtemp) removed with everything in it when done: where a command
// keeps the files it makes along the way, never beside the user's own.
#pragma once

#include <filesystem>
#include <string>

namespace optiml::base {

class ScratchDir {
  public:
    // <temporary directory>/<prefix>-XXXXXX. When it cannot be made, path() is empty and
    // error() says why.
    explicit ScratchDir(const std::string& prefix = "optiml");
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;  // one owner removes it
    ScratchDir& operator=(const ScratchDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    const std::string& error() const { return error_; }

  private:
    std::filesystem::path path_;
    std::string error_;
};

}  // namespace optiml::base
