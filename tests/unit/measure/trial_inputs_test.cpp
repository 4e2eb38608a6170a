// A trial's inputs made by the spec's project generators, built the way the tuner builds them
// (the real host compiler, the embedded <optiml/generate.h>) and called through the worker's own
// code on the host: the kernels of tests/data/kernels/spmv_csr and point_in_polygon. No GPU.
#include "driver/measure/detail/trial_inputs.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>

#include "driver/tune/compare_build.h"

namespace optiml::measure {
namespace {
namespace fs = std::filesystem;

fs::path kernels() {
    return fs::path(OPTIML_SOURCE_DIR) / "tests/data/kernels";
}

template <typename T>
std::vector<T> as(const std::string& bytes) {
    std::vector<T> values(bytes.size() / sizeof(T));
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
    return values;
}

class TrialInputsTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("optiml-trial-inputs-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // The spec's problem (at `size` when given) with its generators built into dir_.
    Problem built(const fs::path& spec_file, const spec::ProblemSize* size = nullptr) {
        spec_ = spec::load_spec(spec_file);
        Problem problem = make_problem(spec_, size);
        tune::build_host_functions(spec_, OPTIML_TEST_CXX, dir_, problem);
        return problem;
    }
    std::size_t argument(const Problem& problem, const std::string& name) const {
        for (std::size_t i = 0; i < problem.arguments.size(); ++i)
            if (problem.arguments[i].name == name) return i;
        ADD_FAILURE() << "no argument " << name;
        return 0;
    }

    fs::path dir_;
    spec::Spec spec_;
};

TEST_F(TrialInputsTest, OneCallFillsAValidCsrMatrixAndTheSameSeedGivesTheSameBytes) {
    const spec::ProblemSize small{{{"rows", 1000}, {"cols", 300}}};
    const Problem problem = built(kernels() / "spmv_csr/spmv_csr.optiml.json", &small);
    ASSERT_EQ(problem.generators.size(), 1u);
    EXPECT_EQ(problem.generators[0].fills,
              (std::vector<std::string>{"row_ptr", "col_idx", "values"}));
    const TrialInputs fills(problem);
    const HostInputs first = fills.make(7);
    const auto row_ptr = as<int>(first.arguments[argument(problem, "row_ptr")]);
    const auto col_idx = as<int>(first.arguments[argument(problem, "col_idx")]);
    ASSERT_EQ(row_ptr.size(), 1001u);
    ASSERT_EQ(col_idx.size(), 16000u);
    EXPECT_EQ(row_ptr.front(), 0);
    EXPECT_EQ(row_ptr.back(), 16000);
    int empty_or_long_rows = 0;
    for (std::size_t r = 0; r < 1000; ++r) {
        ASSERT_LE(row_ptr[r], row_ptr[r + 1]) << "row " << r;
        empty_or_long_rows += row_ptr[r + 1] - row_ptr[r] != 16;
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) {
            ASSERT_GE(col_idx[static_cast<std::size_t>(k)], 0);
            ASSERT_LT(col_idx[static_cast<std::size_t>(k)], 300);
            if (k > row_ptr[r]) {
                ASSERT_LT(col_idx[static_cast<std::size_t>(k) - 1],
                          col_idx[static_cast<std::size_t>(k)]);
            }
        }
    }
    EXPECT_GT(empty_or_long_rows, 100) << "rows of different lengths";

    const HostInputs again = fills.make(7);
    EXPECT_EQ(again.arguments, first.arguments) << "the same seed: the same bytes";
    const HostInputs next = fills.make(8);
    for (const char* name : {"row_ptr", "col_idx", "values"})
        EXPECT_NE(next.arguments[argument(problem, name)], first.arguments[argument(problem, name)])
            << name << ": another trial's seed, another matrix";
    EXPECT_NE(next.arguments[argument(problem, "x")], first.arguments[argument(problem, "x")])
        << "the other fills still vary";
    EXPECT_TRUE(first.arguments[argument(problem, "y")].empty()) << "an output is not filled";
}

TEST_F(TrialInputsTest, GeneratedConstantsAgreeWithEachOtherAndVaryWithTheSeed) {
    const Problem problem = built(kernels() / "point_in_polygon/point_in_polygon.optiml.json");
    ASSERT_EQ(problem.constants.size(), 3u);
    const TrialInputs fills(problem);
    const HostInputs inputs = fills.make(3);
    const auto x = as<float>(inputs.constants[0]);
    const auto y = as<float>(inputs.constants[1]);
    const auto slopes = as<float>(inputs.constants[2]);
    ASSERT_EQ(x.size(), 600u);
    ASSERT_EQ(slopes.size(), 600u);
    for (std::size_t k = 0; k < x.size(); ++k) {
        const std::size_t j = k == 0 ? x.size() - 1 : k - 1;
        if (y[j] != y[k]) {
            EXPECT_EQ(slopes[k], (x[j] - x[k]) / (y[j] - y[k])) << "edge " << k;
        }
    }
    EXPECT_NE(fills.make(4).constants, inputs.constants) << "a new polygon for another trial";
    EXPECT_EQ(fills.make(3).constants, inputs.constants);
}

TEST_F(TrialInputsTest, AGeneratorThatFailsIsNamedWithItsEntriesAndItsReason) {
    // rows 0: make_csr.cpp refuses (it needs rows >= 1)
    const spec::ProblemSize one_row{{{"rows", 1}}};
    Problem problem = built(kernels() / "spmv_csr/spmv_csr.optiml.json", &one_row);
    for (auto& a : problem.arguments)
        if (a.name == "rows") a.value = 0;
    const TrialInputs fills(problem);
    try {
        fills.make(5);
        ADD_FAILURE() << "made";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(),
                     "the input generator make_csr.cpp (fills row_ptr, col_idx, values) failed "
                     "(seed 5): expected buffers row_ptr, col_idx, values and scalars rows, "
                     "cols >= 1");
    }
}

TEST_F(TrialInputsTest, ALibraryWithoutOptimlGenerateSaysHowToDeclareIt) {
    fs::create_directories(dir_);
    std::ofstream(dir_ / "nothing.cpp") << "int unrelated() { return 1; }\n";
    const std::string library = (dir_ / "nothing.so").string();
    ASSERT_EQ(std::system((std::string(OPTIML_TEST_CXX) + " -shared -fPIC -o " + library + " " +
                           (dir_ / "nothing.cpp").string())
                              .c_str()),
              0);
    try {
        GeneratorLibrary generator({library, "nothing.cpp", {"x"}});
        ADD_FAILURE() << "loaded";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("the input generator nothing.cpp does not define "
                                             "optiml_generate; expected extern \"C\" int "
                                             "optiml_generate("),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace optiml::measure
