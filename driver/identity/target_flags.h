// The user's build, as `optiml build` sees it: the nvcc command CMake runs for the kernel's file
// (or, for a kernel of device code only, for the generated launcher that compiles it), read from
// the build's compile_commands.json, turned into the spec's TargetFlags and the architectures the
// target is compiled for.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "driver/compile/build_flags.h"
#include "driver/spec/spec.h"

namespace optiml::identity {

struct UserBuild {
    spec::TargetFlags flags;
    std::vector<int> archs;            // the target's real and virtual architectures, in order
    std::string entry;                 // which file's compile command it is
    std::vector<std::string> ignored;  // the command's options left out (host only)
};

struct UserBuildPaths {
    std::filesystem::path compile_commands;  // the build's compile_commands.json
    std::filesystem::path source_root;       // CMAKE_SOURCE_DIR: include folders hashed under it
    std::filesystem::path build_root;        // CMAKE_BINARY_DIR: and under it, as "<build>/..."
    std::filesystem::path
        own_include_dir;  // OptiML's generated headers: neither hashed nor scanned
};

// The compile command of `spec.source`, else of `launcher`; throws compile::BuildFlagsError
// naming the database when neither has one, or when it cannot be read.
UserBuild read_user_build(const UserBuildPaths& paths, const spec::Spec& spec,
                          const std::filesystem::path& launcher);

// `build`'s flags as the spec carries them: include folders inside the source or build tree (not
// OptiML's own) are scanned for headers and hashed relative to their root; others (the toolkit's,
// OptiML's runtime) only searched.
spec::TargetFlags to_target_flags(const compile::BuildFlags& build, const UserBuildPaths& paths);

}  // namespace optiml::identity
