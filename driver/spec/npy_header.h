// The header of a NumPy .npy file (format versions 1, 2 and 3), read without NumPy: the element
// type code, the memory order and the shape, and where the data starts. A spec's "file" fill
// reads arrays saved with numpy.save; this is the part of the format it needs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace optiml::spec {

// What is wrong with a data file, and how to fix it: the caller adds the file and the field.
class DataFileError : public std::runtime_error {
  public:
    DataFileError(const std::string& problem, std::string fix)
        : std::runtime_error(problem), fix_(std::move(fix)) {}
    const std::string& fix() const { return fix_; }

  private:
    std::string fix_;
};

struct NpyHeader {
    int major_version = 1;
    std::string descr;  // the type code as saved: "<f4", "|u1", ">i8"
    bool fortran_order = false;
    std::vector<std::uint64_t> shape;  // () for a 0-d array: one element
    std::size_t data_offset = 0;       // the data's first byte in the file
    std::uint64_t element_count() const;
};

// Parses the header at the start of `bytes` (the file's first bytes; the whole file will do).
// Throws DataFileError on a bad magic, an unknown version, a truncated or malformed header.
NpyHeader parse_npy_header(std::string_view bytes);

}  // namespace optiml::spec
