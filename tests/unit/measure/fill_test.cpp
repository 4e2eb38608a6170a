#include "driver/measure/detail/fill.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "tests/unit/spec/npy_test_support.h"

namespace optiml::measure {
namespace {
using spec::ElementType;
using Kind = spec::Fill::Kind;

template <typename T>
std::vector<T> as(const std::string& bytes) {
    std::vector<T> values(bytes.size() / sizeof(T));
    std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
}

TEST(Fill, UniformIsDeterministicPerSeedAndWithinRange) {
    const spec::Fill fill{Kind::Uniform, -2.0, 3.0, 42, {}, {}};
    const auto a = make_filled_buffer(ElementType::Float32, fill, 1000);
    EXPECT_EQ(a, make_filled_buffer(ElementType::Float32, fill, 1000));
    EXPECT_NE(a, make_filled_buffer(ElementType::Float32, fill, 1000, 1))
        << "a seed offset draws fresh inputs";
    for (float v : as<float>(a)) {
        EXPECT_GE(v, -2.0f);
        EXPECT_LE(v, 3.0f);
    }
}

TEST(Fill, NormalHasRoughlyTheRequestedMoments) {
    const auto values = as<double>(
        make_filled_buffer(ElementType::Float64, {Kind::Normal, 5.0, 2.0, 7, {}, {}}, 20000));
    double sum = 0, squares = 0;
    for (double v : values) sum += v, squares += v * v;
    const double mean = sum / 20000.0;
    EXPECT_NEAR(mean, 5.0, 0.1);
    EXPECT_NEAR(std::sqrt(squares / 20000.0 - mean * mean), 2.0, 0.1);
}

TEST(Fill, ConstantAndIotaForIntegers) {
    EXPECT_EQ(as<std::int32_t>(
                  make_filled_buffer(ElementType::Int32, {Kind::Constant, 7, 0, 1, {}, {}}, 3)),
              (std::vector<std::int32_t>{7, 7, 7}));
    EXPECT_EQ(
        as<std::int64_t>(make_filled_buffer(ElementType::Int64, {Kind::Iota, 10, 3, 1, {}, {}}, 4)),
        (std::vector<std::int64_t>{10, 13, 16, 19}));
}

// A file fill gives the file's data to every trial: fresh seeds cannot vary it.
TEST(Fill, FileFillReadsTheSameDataForEveryTrial) {
    const auto dir = std::filesystem::temp_directory_path() / "optiml_fill_test_file";
    const std::vector<float> values = {0.5f, 1.5f, -2.5f, 8.0f};
    spec::Fill fill;
    fill.kind = Kind::File;
    fill.file = {dir / "x.npy", "x.npy"};
    spec::testing::write_file(
        fill.file.path,
        spec::testing::npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }",
                                 spec::testing::raw_bytes(values)));
    EXPECT_EQ(as<float>(make_filled_buffer(ElementType::Float32, fill, 4)), values);
    EXPECT_EQ(as<float>(make_filled_buffer(ElementType::Float32, fill, 4, 7)), values);
    try {
        (void)make_filled_buffer(ElementType::Float32, fill, 5);
        FAIL() << "a count the file does not hold is an error";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), fill.file.path.string() +
                                             ": x.npy holds 4 elements (shape (4,)) but the "
                                             "buffer has 5; expected a file of exactly that many "
                                             "elements");
    }
    std::filesystem::remove_all(dir);
}

TEST(Fill, ScalarBytesHaveTheKernelsType) {
    EXPECT_EQ(scalar_bytes(ElementType::Int32, 33554432).size(), 4u);
    EXPECT_EQ(as<std::int32_t>(scalar_bytes(ElementType::Int32, 33554432))[0], 33554432);
    EXPECT_EQ(as<float>(scalar_bytes(ElementType::Float32, 2.5))[0], 2.5f);
    EXPECT_EQ(as<std::uint8_t>(scalar_bytes(ElementType::UInt8, 200))[0], 200);
}

}  // namespace
}  // namespace optiml::measure
