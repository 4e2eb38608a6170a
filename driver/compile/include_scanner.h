// Finds every local header a kernel source includes (#include "..." resolved like a compiler:
// next to the including file, then the include directories), recursively. Angle-bracket
// includes are system headers: they belong to NVRTC's version, which the key hashes already.
// The result feeds both the cache key and the build system's depfile.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace optiml::compile {

struct ScannedFile {
    std::filesystem::path path;  // absolute, normalized
    std::string relative_path;   // relative to `base` (forward slashes); stable across machines
    std::string contents;
};

// The source itself first, then its headers sorted by relative path. Missing quoted headers
// are skipped (the compiler reports them, with context, if they matter).
std::vector<ScannedFile> scan_includes(const std::filesystem::path& source,
                                       const std::vector<std::filesystem::path>& include_dirs,
                                       const std::filesystem::path& base);

}  // namespace optiml::compile
