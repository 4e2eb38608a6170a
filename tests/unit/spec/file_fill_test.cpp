// "file" fills: raw and .npy data files checked against the spec when it is loaded (type, order,
// element count at every size), with messages that name the file, the field and the fix.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/spec/data_file.h"
#include "driver/spec/spec.h"
#include "tests/unit/spec/npy_test_support.h"
#include "tests/unit/spec/spec_test_support.h"

namespace optiml::spec {
namespace {

using testing::fixture_json;
using testing::npy_bytes;
using testing::raw_bytes;
using testing::ScratchSpec;
using testing::write_file;

const std::string kF4Dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1024,), }";

// The fixture at n = 1024 with x filled from `path`; the data file written beside the spec.
struct FileSpec {
    explicit FileSpec(const std::string& path, const std::string& bytes,
                      const std::string& x_type = "float32")
        : scratch(text(path, x_type)) {
        write_file(scratch.directory() / path, bytes);
    }
    static std::string text(const std::string& path, const std::string& x_type) {
        nlohmann::json json = fixture_json();
        json["arguments"][0]["value"] = 1024;
        json["arguments"][2]["type"] = x_type;
        json["arguments"][2]["fill"] = {{"kind", "file"}, {"path", path}};
        return json.dump();
    }
    std::string error() const { return testing::load_error(scratch.path()); }
    ScratchSpec scratch;
};

TEST(FileFill, NpyFloat32IsReadAndNormalized) {
    const FileSpec file("data/x.npy", npy_bytes(1, kF4Dict, raw_bytes(std::vector<float>(1024))));
    const Spec spec = load_spec(file.scratch.path());
    EXPECT_EQ(spec.arguments[2].fill.kind, Fill::Kind::File);
    EXPECT_EQ(spec.arguments[2].fill.file.as_written, "data/x.npy");
    EXPECT_EQ(spec.arguments[2].fill.file.path, file.scratch.directory() / "data/x.npy");
    EXPECT_EQ(spec.normalized["arguments"][2]["fill"],
              (nlohmann::json{{"kind", "file"}, {"path", "data/x.npy"}}));
}

TEST(FileFill, RawFileOfTheRightSize) {
    const FileSpec file("x.bin", raw_bytes(std::vector<std::int32_t>(1024)), "int32");
    EXPECT_EQ(file.error(), "(no error)");
}

TEST(FileFill, RawFileOfTheWrongSize) {
    EXPECT_EQ(FileSpec("x.bin", raw_bytes(std::vector<float>(1000))).error(),
              "arguments[2].count: 'n' is 1024 with the default configuration (block_size_x=256, "
              "items_per_thread=1, n=1024) but x.bin holds 1000 elements (4000 bytes); expected a "
              "count equal to the file's elements, or a file with that many");
    EXPECT_EQ(FileSpec("x.bin", std::string(4001, '\0')).error(),
              "arguments[2].fill.path: x.bin holds 4001 bytes, not a whole number of float32 "
              "elements (4 bytes each); expected a raw file of little-endian float32 values, or "
              "arguments[2]'s type changed to match it");
}

TEST(FileFill, WrongDtype) {
    const std::string f8 = "{'descr': '<f8', 'fortran_order': False, 'shape': (1024,), }";
    EXPECT_EQ(FileSpec("x.npy", npy_bytes(1, f8, raw_bytes(std::vector<double>(1024)))).error(),
              "arguments[2].fill.path: x.npy holds <f8 (float64) but arguments[2] is float32; "
              "expected float32 data (save it with .astype(numpy.float32), little-endian) or "
              "\"type\": \"float64\"");
    const std::string big = "{'descr': '>f4', 'fortran_order': False, 'shape': (1024,), }";
    EXPECT_EQ(FileSpec("x.npy", npy_bytes(1, big, std::string(4096, '\0'))).error(),
              "arguments[2].fill.path: x.npy holds >f4 (big-endian) but arguments[2] is float32; "
              "expected float32 data (save it with .astype(numpy.float32), little-endian)");
}

TEST(FileFill, Int32NpyVersion2) {
    const std::string i4 = "{'descr': '<i4', 'fortran_order': False, 'shape': (32, 32), }";
    EXPECT_EQ(
        FileSpec("x.npy", npy_bytes(2, i4, raw_bytes(std::vector<std::int32_t>(1024))), "int32")
            .error(),
        "(no error)");
}

TEST(FileFill, FortranOrderIsRejected) {
    const std::string f = "{'descr': '<f4', 'fortran_order': True, 'shape': (32, 32), }";
    EXPECT_EQ(FileSpec("x.npy", npy_bytes(1, f, std::string(4096, '\0'))).error(),
              "arguments[2].fill.path: x.npy is in Fortran (column-major) order; expected C "
              "order: save numpy.ascontiguousarray(a)");
}

TEST(FileFill, BadMagicAndTruncatedData) {
    EXPECT_EQ(FileSpec("x.npy", std::string(4096, 'x')).error(),
              "arguments[2].fill.path: x.npy: not a .npy file (it does not start with "
              "\"\\x93NUMPY\"); expected a file written by numpy.save (format version 1, 2 or 3)");
    EXPECT_EQ(FileSpec("x.npy", npy_bytes(1, kF4Dict, std::string(4000, '\0'))).error(),
              "arguments[2].fill.path: x.npy is truncated: its header says shape (1024,) (4096 "
              "bytes of data) but the file has 4000; expected the whole file as numpy.save wrote "
              "it");
}

TEST(FileFill, ShapeProductMustEqualTheCount) {
    const std::string small = "{'descr': '<f4', 'fortran_order': False, 'shape': (10, 10), }";
    EXPECT_EQ(FileSpec("x.npy", npy_bytes(1, small, std::string(400, '\0'))).error(),
              "arguments[2].count: 'n' is 1024 with the default configuration (block_size_x=256, "
              "items_per_thread=1, n=1024) but x.npy holds 100 elements (shape (10, 10)); expected "
              "a count equal to the file's elements, or a file with that many");
}

TEST(FileFill, MissingFileAndStrayFields) {
    nlohmann::json json = fixture_json();
    json["arguments"][2]["fill"] = {{"kind", "file"}, {"path", "absent.npy"}};
    const ScratchSpec missing(json.dump());
    try {
        (void)load_spec(missing.path());
        FAIL() << "a missing data file is an error";
    } catch (const SpecError& e) {
        EXPECT_NE(std::string(e.what()).find("arguments[2].fill.path: \"absent.npy\" not found"),
                  std::string::npos)
            << e.what();
    }
    json["arguments"][2]["fill"]["seed"] = 3;
    const ScratchSpec seeded(json.dump());
    try {
        (void)load_spec(seeded.path());
        FAIL() << "a seed on a file fill is an error";
    } catch (const SpecError& e) {
        EXPECT_NE(std::string(e.what()).find("arguments[2].fill.seed: unknown field 'seed'"),
                  std::string::npos)
            << e.what();
    }
}

TEST(FileFill, ExtraSizesCannotChangeAFilesCount) {
    nlohmann::json json = nlohmann::json::parse(FileSpec::text("x.bin", "float32"));
    json["check"]["extra_sizes"] = {{{"n", 1000}}};
    const ScratchSpec scratch(json.dump());
    write_file(scratch.directory() / "x.bin", raw_bytes(std::vector<float>(1024)));
    try {
        (void)load_spec(scratch.path());
        FAIL() << "the file's count cannot follow n";
    } catch (const SpecError& e) {
        EXPECT_EQ(std::string(e.what()),
                  scratch.path().string() +
                      ": check.extra_sizes[0]: arguments[2].count: 'n' is 1000 with the default "
                      "configuration (block_size_x=256, items_per_thread=1, n=1000) but x.bin "
                      "holds 1024 elements (4096 bytes); expected a size at which the count "
                      "equals the file's elements (a file's data cannot change with the problem "
                      "size)");
    }
}

TEST(DataFile, ReadReturnsTheDataAfterTheHeader) {
    const ScratchSpec scratch("{}");
    const std::vector<float> values = {1.5f, -2.0f, 3.25f};
    const auto path = scratch.directory() / "v.npy";
    write_file(path, npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
                               raw_bytes(values)));
    EXPECT_EQ(read_data_file(path, "v.npy", ElementType::Float32, "x", 3), raw_bytes(values));
    try {
        (void)read_data_file(path, "v.npy", ElementType::Float32, "x", 4);
        FAIL() << "a count mismatch is an error";
    } catch (const DataFileError& e) {
        EXPECT_EQ(std::string(e.what()), "v.npy holds 3 elements (shape (3,)) but x has 4");
    }
}

// Found by fuzzing (tests/fuzz/fill_file_fuzz.cpp): a shape whose product does not fit 64 bits
// was an error without the file's name, and one whose bytes wrap around 2^64 to the file's data
// size (2^61 float64 elements, 0 bytes of data) was accepted with 2^61 elements.
TEST(DataFile, AShapeBeyondSixtyFourBitsIsAnErrorNamingTheFile) {
    const ScratchSpec scratch("{}");
    const auto path = scratch.directory() / "huge.npy";
    const auto error_of = [&](ElementType type) {
        try {
            (void)inspect_data_file(path, "huge.npy", type, "arguments[2]");
        } catch (const DataFileError& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    write_file(path, npy_bytes(1,
                               "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, "
                               "4294967296), }",
                               ""));
    EXPECT_EQ(error_of(ElementType::Float32),
              "huge.npy: malformed .npy header: the shape's product does not fit 64 bits");
    write_file(path, npy_bytes(1,
                               "{'descr': '<f8', 'fortran_order': False, 'shape': "
                               "(2305843009213693952,), }",
                               ""));
    EXPECT_EQ(error_of(ElementType::Float64),
              "huge.npy is truncated: its header says shape (2305843009213693952,) (more than "
              "2^64 bytes of data) but the file has 0");
}

}  // namespace
}  // namespace optiml::spec
