// A spec's "file" fills: the bytes as a .npy file (its header parsed from memory, then the file
// inspected and read as the spec loader and the worker do) and as a raw data file of the same
// bytes. Each problem must be one spec::DataFileError that names the file (its label); anything
// else is a finding, and so is a file accepted with a layout that does not add up: the header's
// elements times the element size, past the data's offset, must be exactly the file's size.
#include "driver/spec/data_file.h"
#include "driver/spec/npy_header.h"
#include "fuzz_support.h"

#include <array>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>

namespace {

namespace fs = std::filesystem;
using optiml::spec::ElementType;

constexpr const char* kLabel = "data/fuzz-input";
constexpr const char* kOwner = "arguments[1]";

// The spec type a .npy type code stands for (as data_file.cpp reads it), else nullopt.
std::optional<ElementType> type_of(const std::string& descr) {
    struct Code {
        const char* text;
        ElementType type;
    };
    static constexpr std::array<Code, 10> codes = {{{"i1", ElementType::Int8},
                                                    {"i2", ElementType::Int16},
                                                    {"i4", ElementType::Int32},
                                                    {"i8", ElementType::Int64},
                                                    {"u1", ElementType::UInt8},
                                                    {"u2", ElementType::UInt16},
                                                    {"u4", ElementType::UInt32},
                                                    {"u8", ElementType::UInt64},
                                                    {"f4", ElementType::Float32},
                                                    {"f8", ElementType::Float64}}};
    if (descr.size() != 3) return std::nullopt;
    for (const Code& code : codes)
        if (descr.substr(1) == code.text) return code.type;
    return std::nullopt;
}

void expect_named(const optiml::spec::DataFileError& error, const std::string& label) {
    if (std::string(error.what()).find(label) == std::string::npos)
        optiml::fuzz::finding(std::string("a data file error that does not name the file: ") +
                              error.what());
    if (error.fix().empty())
        optiml::fuzz::finding(std::string("a data file error without a fix: ") + error.what());
}

// inspect_data_file, then read_data_file of exactly the elements it found (and of one more).
void inspect_and_read(const fs::path& path, const std::string& label, ElementType type,
                      std::size_t file_size) {
    using namespace optiml;
    spec::DataFileLayout layout;
    try {
        layout = spec::inspect_data_file(path, label, type, kOwner);
    } catch (const spec::DataFileError& error) {
        expect_named(error, label);
        return;
    }
    const std::uint64_t element = spec::size_of(type);
    if (layout.element_count > std::numeric_limits<std::uint64_t>::max() / element ||
        layout.data_offset > file_size ||
        layout.element_count * element != file_size - layout.data_offset)
        fuzz::finding(label + " accepted with " + std::to_string(layout.element_count) +
                      " elements of " + std::to_string(element) + " bytes at offset " +
                      std::to_string(layout.data_offset) + " in a file of " +
                      std::to_string(file_size) + " bytes");
    try {
        const std::string bytes =
            spec::read_data_file(path, label, type, kOwner, layout.element_count);
        if (bytes.size() != layout.element_count * element)
            fuzz::finding(label + ": read_data_file returned " + std::to_string(bytes.size()) +
                          " bytes for " + std::to_string(layout.element_count) + " elements");
    } catch (const spec::DataFileError& error) {
        fuzz::finding(label + " inspected fine but could not be read: " + error.what());
    }
    try {
        spec::read_data_file(path, label, type, kOwner, layout.element_count + 1);
        fuzz::finding(label + ": read_data_file accepted a count the file does not hold");
    } catch (const spec::DataFileError& error) {
        expect_named(error, label);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace optiml;
    const std::string_view bytes = fuzz::as_text(data, size);

    // The header from memory: its documented error, or a header that fits the bytes.
    std::optional<ElementType> held;
    try {
        const spec::NpyHeader header = spec::parse_npy_header(bytes);
        if (header.data_offset > size)
            fuzz::finding("a .npy header whose data starts past the end of the bytes");
        held = type_of(header.descr);
        (void)header.element_count();
    } catch (const spec::DataFileError& error) {
        if (error.fix().empty()) fuzz::finding(std::string("no fix given for: ") + error.what());
    }

    // The same bytes as a file: once as .npy (read as the type its header holds, so that
    // mutations reach the shape and size checks), once raw (by its size alone). The raw name is
    // a link to the .npy file, so the bytes are written once.
    const fs::path npy = fuzz::write_input("fill/data.npy", bytes);
    static const fs::path raw = [&] {
        const fs::path link = npy.parent_path() / "data.bin";
        fs::create_symlink(npy.filename(), link);
        return link;
    }();
    inspect_and_read(npy, std::string(kLabel) + ".npy", held.value_or(ElementType::Float32), size);
    static constexpr std::array<ElementType, 4> raw_types = {
        ElementType::UInt8, ElementType::Int16, ElementType::Float32, ElementType::Float64};
    const ElementType raw_type = raw_types[size == 0 ? 0 : data[0] % raw_types.size()];
    inspect_and_read(raw, std::string(kLabel) + ".bin", raw_type, size);
    return 0;
}
