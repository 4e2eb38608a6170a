// Finds every header of the project a kernel source includes, recursively, resolved as the
// compiler resolves them: "..." next to the including file, then the include folders in order;
// <...> in the include folders only. A header found first in a folder that is not scanned (the
// CUDA toolkit's, OptiML's own) is the toolkit's: its version stands for it in the key, and the
// search for that name stops there, as the compiler's does. The result feeds both the cache key
// and the build system's depfile.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace optiml::compile {

struct ScannedFile {
    std::filesystem::path path;  // absolute, normalized
    // Relative to `base` (forward slashes), stable across machines; for a header of a folder
    // outside the project, "<include>/" and its path in that folder.
    std::string relative_path;
    std::string contents;
    // What it includes from outside the scanned folders (the toolkit's, the system's, or not
    // found), as written: "cub/cub.cuh", "cassert".
    std::vector<std::string> unscanned_includes;
};

struct IncludeDir {
    std::filesystem::path path;  // absolute
    bool scanned = true;         // false: the toolkit's or OptiML's own, searched but not hashed
    bool in_project = true;      // false: named by its path inside it ("<include>/...")
};

// The source itself first, then its headers sorted by relative path. Headers not found are
// skipped (the compiler reports them, with context, if they matter).
std::vector<ScannedFile> scan_includes(const std::filesystem::path& source,
                                       const std::vector<IncludeDir>& include_dirs,
                                       const std::filesystem::path& base);

}  // namespace optiml::compile
