// Compiles a project's host C++ file into a shared object with the host compiler (the one CMake
// found for the project, CMAKE_CXX_COMPILER): how a spec's comparison function becomes code the
// worker can load. Unlike NVRTC's output, this is host code that runs on the build machine, so
// only sources the project itself names in its spec are ever compiled here.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace optiml::compile {

struct HostCompileResult {
    bool ok = false;
    std::string command;  // as run, for messages
    std::string log;      // the compiler's output (or why it could not be run)
};

// `compiler` -O2 -fPIC -shared -I<dir>... -o `output` `source`
HostCompileResult compile_shared_object(const std::string& compiler,
                                        const std::filesystem::path& source,
                                        const std::vector<std::filesystem::path>& include_dirs,
                                        const std::filesystem::path& output);

}  // namespace optiml::compile
