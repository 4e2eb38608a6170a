// The data of a "file" fill: a raw little-endian binary file or a NumPy .npy array (by the
// extension .npy), checked against the element type the spec gives it. The spec loader checks
// each file's type and element count up front; the worker reads the bytes the kernel gets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "driver/spec/npy_header.h"
#include "driver/spec/spec.h"

namespace optiml::spec {

struct DataFileLayout {
    std::uint64_t element_count = 0;
    std::size_t data_offset = 0;  // 0 for a raw file
    std::string description;      // "shape (10, 100)" or "4000 bytes": for messages
};

// Reads a .npy header (or a raw file's size) and checks it holds `type`: little-endian, C order,
// the same element type. `label` names the file in messages ("data/x.npy"), `owner` the spec
// entry it fills ("arguments[1]"). Throws DataFileError, whose message names both.
DataFileLayout inspect_data_file(const std::filesystem::path& path, const std::string& label,
                                 ElementType type, const std::string& owner);

// The data's bytes: exactly `count` elements of `type`, else DataFileError.
std::string read_data_file(const std::filesystem::path& path, const std::string& label,
                           ElementType type, const std::string& owner, std::uint64_t count);

// "holds 1000 elements (shape (10, 100))": how a count mismatch describes the file.
std::string describe_contents(const DataFileLayout& layout);

}  // namespace optiml::spec
