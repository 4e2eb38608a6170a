#include <cstdlib>
#include <string>

#include "cache/store.h"

namespace optiml::cache {

namespace {

// Empty counts as unset, as the XDG Base Directory specification says.
std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? std::string() : std::string(value);
}

}  // namespace

std::filesystem::path default_cache_dir() {
    if (std::string explicit_dir = environment("OPTIML_CACHE_DIR"); !explicit_dir.empty()) {
        // A relative path would resolve against whatever directory each build step runs in,
        // scattering the cache; refuse it rather than guess.
        if (std::filesystem::path(explicit_dir).is_relative()) {
            throw CacheError("OPTIML_CACHE_DIR='" + explicit_dir +
                             "' is a relative path; set it to an absolute path");
        }
        return explicit_dir;
    }
    // The XDG specification says relative values are invalid and must be ignored.
    if (std::string xdg = environment("XDG_CACHE_HOME");
        !xdg.empty() && std::filesystem::path(xdg).is_absolute()) {
        return std::filesystem::path(xdg) / "optiml";
    }
    if (std::string home = environment("HOME"); !home.empty()) {
        return std::filesystem::path(home) / ".cache" / "optiml";
    }
    throw CacheError(
        "cannot choose a cache directory: none of OPTIML_CACHE_DIR, XDG_CACHE_HOME and HOME is "
        "set; set OPTIML_CACHE_DIR to an absolute path");
}

}  // namespace optiml::cache
