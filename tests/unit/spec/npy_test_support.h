// .npy files written by hand for tests (no NumPy here): the magic, the version, the header's
// length and the dict literal padded with spaces and a newline to a multiple of 64 bytes, as
// numpy.save writes them; then the data.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace optiml::spec::testing {

inline std::string npy_bytes(int major, const std::string& dict, const std::string& data) {
    const std::size_t prefix = 8 + (major == 1 ? 2 : 4);
    std::string header = dict;
    while ((prefix + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY";
    out += static_cast<char>(major);
    out += '\0';
    const std::size_t length = header.size();
    for (std::size_t i = 0; i < (major == 1 ? 2u : 4u); ++i)
        out += static_cast<char>((length >> (8 * i)) & 0xff);
    return out + header + data;
}

template <typename T>
std::string raw_bytes(const std::vector<T>& values) {
    std::string bytes(values.size() * sizeof(T), '\0');
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

inline void write_file(const std::filesystem::path& path, const std::string& bytes) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

}  // namespace optiml::spec::testing
