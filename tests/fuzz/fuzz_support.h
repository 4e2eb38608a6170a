// What the fuzz targets share: the bytes as a string, and as a file for readers that take a path
// (in one private folder per process, rewritten for each input).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace optiml::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// This process's private folder (removed at exit).
const std::filesystem::path& scratch_folder();

// Writes the bytes to scratch_folder()/name (sub-folders made) and returns its path.
std::filesystem::path write_input(const std::string& name, std::string_view bytes);

// Ends the process loudly (a finding): a message that breaks a reader's promise, such as an
// error that does not name the file it read.
[[noreturn]] void finding(const std::string& what);

}  // namespace optiml::fuzz
