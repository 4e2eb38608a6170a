// A spec's comparison function, built the way the tuner builds it (the embedded <optiml/compare.h>
// and the real host compiler), then loaded and called through the worker's loader on host
// buffers. No GPU needed.
#include "driver/tune/compare_build.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include "driver/measure/detail/compare_library.h"

namespace optiml::tune {
namespace {
namespace fs = std::filesystem;

class CompareBuildTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("optiml-compare-build-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        spec_ = spec::load_spec(data() / "scale.optiml.json");
    }
    void TearDown() override { fs::remove_all(dir_); }
    static fs::path data() { return fs::path(OPTIML_SOURCE_DIR) / "tests/unit/tune/data"; }

    std::string build_error(const std::string& compiler) {
        try {
            build_compare_library(spec_, compiler, dir_);
        } catch (const CompareBuildError& e) {
            return e.what();
        }
        ADD_FAILURE() << "built";
        return {};
    }

    fs::path dir_;
    spec::Spec spec_;
};

TEST_F(CompareBuildTest, TheBuiltFunctionJudgesOutputsThroughTheWorkersLoader) {
    const fs::path library = build_compare_library(spec_, OPTIML_TEST_CXX, dir_);
    ASSERT_TRUE(fs::exists(library));
    const measure::CompareLibrary compare(library.string(), spec_.check.compare_as_written);
    const std::vector<measure::BufferSpec> arguments{
        {"n", spec::ElementType::Int32, false, 4, 0, {}, spec::Role::Input},
        {"y", spec::ElementType::Float32, true, 0, 4, {}, spec::Role::Output}};
    const float original[4] = {1, 2, 3, 4};
    const float regrouped[4] = {6, 4, 0, 0};
    const float wrong[4] = {6, 5, 0, 0};
    const measure::Tolerance tolerance{1e-5, 1e-6};
    EXPECT_EQ(compare.compare(arguments[1], original, regrouped, arguments, tolerance),
              std::nullopt);
    EXPECT_EQ(compare.compare(arguments[1], original, wrong, arguments, tolerance),
              "y: partials add up to 11, expected 10 (compare_partials.cpp)");
}

TEST_F(CompareBuildTest, ACompileErrorNamesTheFileTheFieldAndTheCompilersMessage) {
    spec_.check.compare = data() / "broken_compare.cpp";
    const std::string error = build_error(OPTIML_TEST_CXX);
    EXPECT_EQ(error.rfind((data() / "broken_compare.cpp").string() +
                              ": the comparison function (check.compare of " + spec_.file.string() +
                              ") does not compile",
                          0),
              0u)
        << error;
    EXPECT_NE(error.find("no_such_field"), std::string::npos) << error;
}

TEST_F(CompareBuildTest, AMissingCompilerIsAClearError) {
    const std::string error = build_error("/nonexistent/c++");
    EXPECT_NE(error.find("cannot run '/nonexistent/c++'"), std::string::npos) << error;
    EXPECT_NE(error.find("--host-compiler"), std::string::npos) << error;
}

}  // namespace
}  // namespace optiml::tune
