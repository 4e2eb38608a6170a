// Whole-file writes that a reader sees complete or not at all: the text goes to a temporary file
// beside the target, unique to this call (mkstemp), which rename(2) then puts in place. Two
// writers of the same file each leave a whole file; a crash leaves at most a stray temporary.
// (The cache's entries, whole folders, have their own in cache/.)
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace optiml::base {

// The folder must exist. Throws std::runtime_error naming the file and the system's reason.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

// The same without exceptions (for the profiler library injected into a user's program): the
// reason it failed, or empty when the file was written.
std::string try_write_file_atomically(const std::filesystem::path& path, std::string_view contents);

}  // namespace optiml::base
