#include "driver/identity/target_flags.h"

#include "driver/compile/nvcc_compiler.h"

namespace optiml::identity {
namespace fs = std::filesystem;
namespace {

// `path` relative to `root` when inside it (no "..": "." for the root itself), else empty.
std::string inside(const fs::path& path, const fs::path& root) {
    if (root.empty()) return "";
    const fs::path relative = path.lexically_normal().lexically_relative(root.lexically_normal());
    if (relative.empty() || *relative.begin() == "..") return "";
    return relative.generic_string();
}

// The CUDA toolkit's folders and the system's: their headers stand for themselves through the
// toolkit's and the compiler's versions (docs/caching.md).
bool toolkit_or_system(const fs::path& dir) {
    static const fs::path toolkit =
        fs::weakly_canonical(fs::path(compile::nvcc_path())).parent_path().parent_path();
    std::error_code error;  // a name too long for the file system: taken as written
    fs::path real = fs::weakly_canonical(dir, error);
    if (error) real = dir.lexically_normal();
    for (const fs::path& root :
         {toolkit, fs::path("/usr/include"), fs::path("/usr/local/include"), fs::path("/usr/lib")})
        if (!inside(real, root).empty()) return true;
    return false;
}

}  // namespace

spec::TargetFlags to_target_flags(const compile::BuildFlags& build, const UserBuildPaths& paths) {
    spec::TargetFlags flags;
    flags.options = build.options;
    flags.include_dirs = build.include_dirs;
    flags.relocatable = build.relocatable;
    // The dialect both compilers default to (nvcc and NVRTC 12 and 13, whose versions the key
    // holds) changes nothing compiled: left out of the key, a project that says CUDA_STANDARD 17
    // and one that says nothing share entries (and the examples' seeds stay valid).
    for (const std::string& option : build.options)
        if (option != "-std=c++17" && option != "--std=c++17") flags.key_options.push_back(option);
    for (const fs::path& dir : build.include_dirs) {
        if (!paths.own_include_dir.empty() &&
            dir.lexically_normal() == paths.own_include_dir.lexically_normal())
            continue;
        // The build tree first: it may lie inside the source tree (build/ in the checkout).
        if (const std::string relative = inside(dir, paths.build_root); !relative.empty()) {
            flags.key_options.push_back("-I<build>/" + relative);
            flags.project_include_dirs.push_back(dir);
        } else if (const std::string in_source = inside(dir, paths.source_root);
                   !in_source.empty()) {
            flags.key_options.push_back("-I" + in_source);
            flags.project_include_dirs.push_back(dir);
        } else if (!toolkit_or_system(dir)) {
            flags.outside_include_dirs.push_back(dir);
        }
    }
    if (build.relocatable) flags.key_options.push_back("-rdc=true");
    return flags;
}

UserBuild read_user_build(const UserBuildPaths& paths, const spec::Spec& spec,
                          const fs::path& launcher) {
    std::string entry = spec.source.string();
    auto command = compile::find_compile_command(paths.compile_commands, spec.source);
    if (!command) {
        entry = launcher.string();
        command = compile::find_compile_command(paths.compile_commands, launcher);
    }
    if (!command)
        throw compile::BuildFlagsError(
            paths.compile_commands.string() + ": no compile command for " + spec.source.string() +
            " or " + launcher.string() +
            "; expected the target's (optiml_optimize_kernel() turns on its "
            "EXPORT_COMPILE_COMMANDS: build with the Ninja or Makefile generators)");
    compile::BuildFlags build;
    try {
        build = compile::parse_nvcc_command(*command);
    } catch (const compile::BuildFlagsError& e) {
        throw compile::BuildFlagsError(paths.compile_commands.string() + ": the entry of " + entry +
                                       ": " + e.what());
    }
    UserBuild user{to_target_flags(build, paths), build.archs, entry, build.ignored};
    return user;
}

}  // namespace optiml::identity
