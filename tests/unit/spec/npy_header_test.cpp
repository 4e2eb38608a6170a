// The .npy header reader on headers written by hand: versions 1 and 2, shapes, and every way a
// file can be wrong.
#include "driver/spec/npy_header.h"

#include <gtest/gtest.h>

#include "tests/unit/spec/npy_test_support.h"

namespace optiml::spec {
namespace {

using testing::npy_bytes;

std::string npy_error_of(const std::string& bytes) {
    try {
        (void)parse_npy_header(bytes);
    } catch (const DataFileError& error) {
        return error.what();
    }
    return "(no error)";
}

TEST(NpyHeader, Version1) {
    const std::string file =
        npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", "");
    const NpyHeader header = parse_npy_header(file);
    EXPECT_EQ(header.major_version, 1);
    EXPECT_EQ(header.descr, "<f4");
    EXPECT_FALSE(header.fortran_order);
    EXPECT_EQ(header.shape, (std::vector<std::uint64_t>{3, 4}));
    EXPECT_EQ(header.element_count(), 12u);
    EXPECT_EQ(header.data_offset % 64, 0u) << "the header is padded to a multiple of 64 bytes";
    EXPECT_EQ(header.data_offset, file.size());
}

TEST(NpyHeader, Version2WithFourByteLengthAndOtherKeyOrder) {
    const std::string file =
        npy_bytes(2, "{\"shape\": (5,), \"fortran_order\": True, \"descr\": \"<i8\"}", "");
    const NpyHeader header = parse_npy_header(file);
    EXPECT_EQ(header.major_version, 2);
    EXPECT_EQ(header.descr, "<i8");
    EXPECT_TRUE(header.fortran_order);
    EXPECT_EQ(header.shape, (std::vector<std::uint64_t>{5}));
    EXPECT_EQ(header.data_offset, file.size());
}

TEST(NpyHeader, ZeroDimensionalArrayHasOneElement) {
    const NpyHeader header = parse_npy_header(
        npy_bytes(3, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", ""));
    EXPECT_TRUE(header.shape.empty());
    EXPECT_EQ(header.element_count(), 1u);
}

TEST(NpyHeader, BadMagic) {
    EXPECT_EQ(npy_error_of("PK\x03\x04 not numpy"),
              "not a .npy file (it does not start with \"\\x93NUMPY\")");
}

TEST(NpyHeader, UnknownVersion) {
    std::string file = npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", "");
    file[6] = 9;
    EXPECT_EQ(npy_error_of(file), ".npy format version 9 is not supported");
}

TEST(NpyHeader, TruncatedHeader) {
    const std::string file =
        npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", "");
    EXPECT_EQ(npy_error_of(file.substr(0, 30)),
              "malformed .npy header: the file ends inside the header");
    EXPECT_EQ(npy_error_of(file.substr(0, 7)),
              "malformed .npy header: the file ends inside the header");
}

TEST(NpyHeader, MalformedDictionaries) {
    EXPECT_EQ(npy_error_of(npy_bytes(1, "{'descr': '<f4', 'shape': (1,)}", "")),
              "malformed .npy header: descr, fortran_order and shape must all be given");
    EXPECT_EQ(
        npy_error_of(npy_bytes(1, "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,)}", "")),
        "malformed .npy header: expected True or False at offset 34");
    EXPECT_EQ(
        npy_error_of(npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (a,)}", "")),
        "malformed .npy header: expected a dimension at offset 51");
    EXPECT_EQ(npy_error_of(npy_bytes(1, "{'descr': '<f4', 'colour': 'red'}", "")),
              "malformed .npy header: unknown key 'colour'");
}

}  // namespace
}  // namespace optiml::spec
