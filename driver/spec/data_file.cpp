// Raw and .npy data files for "file" fills. A raw file is the elements' bytes and nothing else,
// so its size alone must match; a .npy file says what it holds, so its type code, memory order
// and shape are checked against the spec before any byte is used.
#include "driver/spec/data_file.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>

namespace optiml::spec {
namespace {

struct NpyType {
    char kind;  // 'f', 'i', 'u'
    std::size_t bytes;
    ElementType type;
};

constexpr std::array<NpyType, 10> kNpyTypes = {{
    {'i', 1, ElementType::Int8},
    {'i', 2, ElementType::Int16},
    {'i', 4, ElementType::Int32},
    {'i', 8, ElementType::Int64},
    {'u', 1, ElementType::UInt8},
    {'u', 2, ElementType::UInt16},
    {'u', 4, ElementType::UInt32},
    {'u', 8, ElementType::UInt64},
    {'f', 4, ElementType::Float32},
    {'f', 8, ElementType::Float64},
}};

// "<f8" -> float64; nullopt for a code no spec type matches (big-endian, bool, half, ...).
std::optional<ElementType> element_type_of(const std::string& descr) {
    if (descr.size() != 3 || (descr[0] != '<' && descr[0] != '|' && descr[0] != '=')) return {};
    for (const NpyType& entry : kNpyTypes)
        if (descr[1] == entry.kind && static_cast<std::size_t>(descr[2] - '0') == entry.bytes)
            return entry.type;
    return std::nullopt;
}

std::string read_prefix(const std::filesystem::path& path, const std::string& label,
                        std::size_t limit) {
    std::ifstream stream(path, std::ios::binary);
    if (!stream) throw DataFileError(label + " cannot be opened", "a readable file");
    std::string bytes(limit, '\0');
    stream.read(bytes.data(), static_cast<std::streamsize>(limit));
    bytes.resize(static_cast<std::size_t>(stream.gcount()));
    return bytes;
}

std::uint64_t file_size(const std::filesystem::path& path, const std::string& label) {
    std::error_code error;
    const std::uintmax_t size = std::filesystem::file_size(path, error);
    if (error) throw DataFileError(label + " cannot be read (" + error.message() + ")", "a file");
    return size;
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

DataFileLayout inspect_npy(const std::filesystem::path& path, const std::string& label,
                           ElementType type, const std::string& owner) {
    // Headers are padded to 64 bytes and short; numpy itself warns beyond a few kilobytes.
    constexpr std::size_t kHeaderLimit = 1 << 20;
    NpyHeader header;
    std::uint64_t element_count = 0;
    try {
        header = parse_npy_header(read_prefix(
            path, label, std::min<std::uint64_t>(kHeaderLimit, file_size(path, label))));
        element_count = header.element_count();  // throws when the shape's product overflows
    } catch (const DataFileError& error) {
        throw DataFileError(label + ": " + error.what(), error.fix());
    }
    const std::optional<ElementType> held = element_type_of(header.descr);
    const std::string wanted = to_string(type);
    if (!held || *held != type) {
        const std::string what = held ? " (" + to_string(*held) + ")"
                                 : header.descr.starts_with(">")
                                     ? " (big-endian)"
                                     : " (not an element type of specs)";
        throw DataFileError(
            label + " holds " + header.descr + what + " but " + owner + " is " + wanted,
            wanted + " data (save it with .astype(numpy." + wanted + "), little-endian)" +
                (held ? " or \"type\": \"" + to_string(*held) + "\"" : ""));
    }
    if (header.fortran_order)
        throw DataFileError(label + " is in Fortran (column-major) order",
                            "C order: save numpy.ascontiguousarray(a)");
    DataFileLayout layout{element_count, header.data_offset, "shape " + shape_text(header.shape)};
    const std::uint64_t data_bytes = file_size(path, label) - header.data_offset;
    // A shape whose bytes do not fit 64 bits must not wrap around to the file's size.
    const bool too_large =
        element_count > std::numeric_limits<std::uint64_t>::max() / size_of(type);
    if (too_large || data_bytes != element_count * size_of(type))
        throw DataFileError(label + " is truncated: its header says shape " +
                                shape_text(header.shape) + " (" +
                                (too_large ? std::string("more than 2^64")
                                           : std::to_string(element_count * size_of(type))) +
                                " bytes of data) but the file has " + std::to_string(data_bytes),
                            "the whole file as numpy.save wrote it");
    return layout;
}

}  // namespace

std::string describe_contents(const DataFileLayout& layout) {
    return "holds " + std::to_string(layout.element_count) + " elements (" + layout.description +
           ")";
}

DataFileLayout inspect_data_file(const std::filesystem::path& path, const std::string& label,
                                 ElementType type, const std::string& owner) {
    if (path.extension() == ".npy") return inspect_npy(path, label, type, owner);
    const std::uint64_t bytes = file_size(path, label);
    if (bytes % size_of(type) != 0)
        throw DataFileError(label + " holds " + std::to_string(bytes) +
                                " bytes, not a whole number of " + to_string(type) + " elements (" +
                                std::to_string(size_of(type)) + " bytes each)",
                            "a raw file of little-endian " + to_string(type) + " values, or " +
                                owner + "'s type changed to match it");
    return {bytes / size_of(type), 0, std::to_string(bytes) + " bytes"};
}

std::string read_data_file(const std::filesystem::path& path, const std::string& label,
                           ElementType type, const std::string& owner, std::uint64_t count) {
    const DataFileLayout layout = inspect_data_file(path, label, type, owner);
    if (layout.element_count != count)
        throw DataFileError(label + " " + describe_contents(layout) + " but " + owner + " has " +
                                std::to_string(count),
                            "a file of exactly that many elements");
    std::ifstream stream(path, std::ios::binary);
    stream.seekg(static_cast<std::streamoff>(layout.data_offset));
    std::string bytes(static_cast<std::size_t>(count * size_of(type)), '\0');
    stream.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (static_cast<std::size_t>(stream.gcount()) != bytes.size())
        throw DataFileError(label + " could not be read whole", "a readable file");
    return bytes;
}

}  // namespace optiml::spec
