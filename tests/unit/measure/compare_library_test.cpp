// A project's comparison function, compiled for real with the host compiler and called through
// the loader the worker uses, on host buffers (no GPU needed); and the element-wise comparison
// it replaces.
#include "driver/measure/detail/compare_library.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "driver/compile/host_compiler.h"

namespace optiml::measure {
namespace {
namespace fs = std::filesystem;

class CompareLibraryTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = fs::temp_directory_path() / ("optiml-compare-test-" + std::to_string(::getpid()));
        fs::create_directories(dir_);
        for (const char* name : {"compare_sums", "no_compare"}) {
            const auto result = compile::compile_shared_object(
                OPTIML_TEST_CXX, fs::path(OPTIML_TEST_DATA) / (std::string(name) + ".cpp"),
                {OPTIML_RUNTIME_INCLUDE}, dir_ / (std::string(name) + ".so"));
            ASSERT_TRUE(result.ok) << result.command << "\n" << result.log;
        }
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }

    static std::string library(const char* name) {
        return (dir_ / (std::string(name) + ".so")).string();
    }

    // n (a scalar) and the partial sums: 4 of them in the original, 2 (plus zeros) in a variant.
    std::vector<BufferSpec> arguments_{
        {"n", spec::ElementType::Int32, false, 1000, 0, {}, spec::Role::Input},
        {"partials", spec::ElementType::Float32, true, 0, 4, {}, spec::Role::Output}};
    const BufferSpec& partials() const { return arguments_[1]; }
    Tolerance tolerance_{1e-5, 1e-6};
    static fs::path dir_;
};
fs::path CompareLibraryTest::dir_;

TEST_F(CompareLibraryTest, AcceptsWhatTheProjectsFunctionAcceptsWhereElementsDiffer) {
    const float original[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    const float variant[4] = {3.0f, 7.0f, 0.0f, 0.0f};  // the same total, fewer partials
    const CompareLibrary compare(library("compare_sums"), "compare_sums.cpp");
    EXPECT_EQ(compare_output(partials(), variant, original, arguments_, tolerance_, &compare),
              std::nullopt);
    // Without it, the element-wise comparison rejects the variant.
    const auto element_wise =
        compare_output(partials(), variant, original, arguments_, tolerance_, nullptr);
    ASSERT_TRUE(element_wise);
    EXPECT_NE(element_wise->find("partials[0]: got 3, expected 1"), std::string::npos)
        << *element_wise;
}

TEST_F(CompareLibraryTest, RejectsWithTheFunctionsOwnMessageAndTheScalarsItWasGiven) {
    const float original[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    const float variant[4] = {3.0f, 7.0f, 1.0f, 0.0f};
    const CompareLibrary compare(library("compare_sums"), "compare_sums.cpp");
    const auto why =
        compare_output(partials(), variant, original, arguments_, tolerance_, &compare);
    ASSERT_TRUE(why);
    EXPECT_EQ(*why, "partials: total 11, expected 10 (n=1000) (compare_sums.cpp)");
}

TEST_F(CompareLibraryTest, TheElementWiseComparisonAcceptsEqualOutputs) {
    const float original[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    EXPECT_EQ(compare_output(partials(), original, original, arguments_, tolerance_, nullptr),
              std::nullopt);
}

TEST_F(CompareLibraryTest, ALibraryWithoutTheFunctionIsAClearError) {
    try {
        CompareLibrary compare(library("no_compare"), "checks/no_compare.cpp");
        FAIL() << "loaded";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()).rfind(
                      "the comparison function of checks/no_compare.cpp does not define "
                      "optiml_compare; expected extern \"C\" int optiml_compare(",
                      0),
                  0u)
            << e.what();
    }
}

TEST_F(CompareLibraryTest, AMissingLibraryIsAClearError) {
    try {
        CompareLibrary compare((dir_ / "missing.so").string(), "compare.cpp");
        FAIL() << "loaded";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("cannot load the comparison function of compare.cpp"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("missing.so"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace optiml::measure
