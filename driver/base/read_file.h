// A whole file as bytes; empty when it cannot be read (callers report what was missing).
#pragma once

#include <filesystem>
#include <string>

namespace optiml::base {

std::string read_file(const std::filesystem::path& path);

}  // namespace optiml::base
