#include "driver/propose/detail/rewrites.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "driver/source/kernel_text.h"
#include "driver/source/rewrite_error.h"

namespace optiml::propose {
namespace {

// Another kernel around the one rewritten: it must come out unchanged.
const std::string kPrelude = "__global__ void other(float* x) { x[0] = 1; }\n";

const std::string kSaxpy = R"(__global__ void saxpy(int n, float a, float* x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 4; ++k)
        if (i < n) y[i] = a * x[i] + y[i];
}
)";

TEST(AddLaunchBounds, InsertsBeforeTheName) {
    EXPECT_EQ(add_launch_bounds(kPrelude + kSaxpy, "saxpy", 256),
              kPrelude +
                  "__global__ void __launch_bounds__(256) saxpy(int n, float a, float* x, "
                  "float *y) {" +
                  kSaxpy.substr(kSaxpy.find('{') + 1));
    const auto with_blocks =
        add_launch_bounds("template <int B>\n__global__ void k() {}", "k", 128, 2);
    EXPECT_EQ(with_blocks, "template <int B>\n__global__ void __launch_bounds__(128, 2) k() {}");
}

TEST(AddLaunchBounds, DeclinesWhenPresentAndRejectsNonsense) {
    EXPECT_EQ(add_launch_bounds("__global__ void __launch_bounds__(64) k() {}", "k", 256),
              std::nullopt);
    EXPECT_THROW(add_launch_bounds(kSaxpy, "saxpy", 0), source::RewriteError);
    EXPECT_THROW(add_launch_bounds(kSaxpy, "nothing", 256), source::RewriteError);
}

TEST(UnrollLoop, InsertsAPragmaLineIndentedLikeTheLoop) {
    const auto result = unroll_loop(kSaxpy, "saxpy", 3, 4);
    std::string expected = kSaxpy;
    expected.insert(expected.find("    for"), "    #pragma unroll 4\n");
    EXPECT_EQ(result, expected);
    const auto full = unroll_loop(kSaxpy, "saxpy", 3, 0);
    ASSERT_TRUE(full.has_value());
    EXPECT_NE(full->find("    #pragma unroll\n    for"), std::string::npos);
}

TEST(UnrollLoop, ReplacesAnExistingFactorAndDeclinesTheSame) {
    const std::string source =
        "__global__ void k(float* x) {\n#pragma unroll 2\r\n"
        "  for (int i = 0; i < 8; ++i) x[i] = 0;\r\n}\r\n";
    EXPECT_EQ(unroll_loop(source, "k", 3, 2), std::nullopt);
    const auto result = unroll_loop(source, "k", 3, 8);
    EXPECT_EQ(result,
              "__global__ void k(float* x) {\n#pragma unroll 8\r\n"
              "  for (int i = 0; i < 8; ++i) x[i] = 0;\r\n}\r\n");
    EXPECT_EQ(unroll_loop(*result, "k", 3, 0),
              "__global__ void k(float* x) {\n#pragma unroll\r\n"
              "  for (int i = 0; i < 8; ++i) x[i] = 0;\r\n}\r\n");
}

TEST(UnrollLoop, PutsALoopThatSharesItsLineOnALineOfItsOwn) {
    const std::string source = "__global__ void k(float* x) {\r\n  if (x) for (;;) break;\r\n}";
    EXPECT_EQ(unroll_loop(source, "k", 2, 2),
              "__global__ void k(float* x) {\r\n  if (x)\r\n  #pragma unroll 2\r\n  for (;;) "
              "break;\r\n}");
}

TEST(UnrollLoop, DeclinesALineWithoutALoopOfThatKernel) {
    EXPECT_EQ(unroll_loop(kSaxpy, "saxpy", 2, 4), std::nullopt);
    const std::string two = kSaxpy + "__global__ void k() {\n    for (;;) {}\n}\n";
    EXPECT_EQ(unroll_loop(two, "saxpy", 7, 4), std::nullopt);  // k's loop, not saxpy's
    EXPECT_NE(unroll_loop(two, "k", 7, 4), std::nullopt);
    EXPECT_THROW(unroll_loop(kSaxpy, "saxpy", 3, -1), source::RewriteError);
}

TEST(RestrictPointers, AddsRestrictToEveryPointerAndConstToReadOnlyOnes) {
    const auto result = restrict_pointers(kPrelude + kSaxpy, "saxpy", {"x", "y", "n"});
    EXPECT_EQ(result, kPrelude +
                          "__global__ void saxpy(int n, float a, const float* __restrict__ x, "
                          "float * __restrict__ y) {" +
                          kSaxpy.substr(kSaxpy.find('{') + 1));
}

TEST(RestrictPointers, NeverMakesAWrittenPointerConst) {
    const std::string source = R"(__global__ void k(float* out, float* sum, float** rows) {
    out[threadIdx.x] += 1.0f;
    atomicAdd(&sum[0], rows[0][1]);
}
)";
    EXPECT_EQ(restrict_pointers(source, "k", {"out", "sum", "rows"}),
              "__global__ void k(float* __restrict__ out, float* __restrict__ sum, "
              "float* const* __restrict__ rows) {" +
                  source.substr(source.find('{') + 1));
}

TEST(RestrictPointers, DeclinesWhenEverythingIsQualified) {
    const std::string source =
        "__global__ void k(const float* __restrict__ x, float* __restrict__ y, int n) "
        "{ y[0] = x[0]; }";
    EXPECT_EQ(restrict_pointers(source, "k", {"x", "y"}), std::nullopt);
}

TEST(LoadThroughLdg, WrapsReadsOfReadOnlyScalarPointers) {
    const std::string source = R"(__global__ void k(const float* x, float* y, const int* index,
                  const float4* v, const T* t, float* w) {
    y[index[threadIdx.x]] = x[f(index[0], y[1])] + v[0].x + t[0] + w[0] + __ldg(&x[2]);
    w[0] = 0;
}
)";
    const auto result = load_through_ldg(source, "k", {"x", "y", "index", "v", "t", "w"});
    ASSERT_TRUE(result.has_value());
    EXPECT_NE(result->find("    y[__ldg(&index[threadIdx.x])] = "
                           "__ldg(&x[f(__ldg(&index[0]), y[1])]) + __ldg(&v[0]).x + t[0] + w[0] "
                           "+ __ldg(&x[2]);"),
              std::string::npos)
        << *result;
    EXPECT_EQ(load_through_ldg(*result, "k", {"x", "index", "v"}), std::nullopt);
}

TEST(LoadThroughLdg, DeclinesWithoutReadOnlyReads) {
    EXPECT_EQ(load_through_ldg(kSaxpy, "saxpy", {"y"}), std::nullopt);  // written
    EXPECT_EQ(load_through_ldg(kSaxpy, "saxpy", {}), std::nullopt);
    EXPECT_EQ(load_through_ldg(kSaxpy, "saxpy", {"x"}),
              "__global__ void saxpy(int n, float a, float* x, float *y) {\n"
              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    for (int k = 0; k < 4; ++k)\n"
              "        if (i < n) y[i] = a * __ldg(&x[i]) + y[i];\n}\n");
}

// Each rewrite, applied in every order to the output of the others, leaves a kernel that is
// still found with the same name and parameter names, and other kernels untouched.
TEST(Rewrites, ComposeInAnyOrder) {
    const std::string source = kPrelude + kSaxpy;
    using Step = std::function<std::optional<std::string>(const std::string&)>;
    const std::array<Step, 4> steps = {
        [](const std::string& s) { return restrict_pointers(s, "saxpy", {"x"}); },
        [](const std::string& s) { return load_through_ldg(s, "saxpy", {"x"}); },
        [](const std::string& s) {
            return unroll_loop(s, "saxpy", source::find_kernel(s, "saxpy").loops.at(0).line, 2);
        },
        [](const std::string& s) { return add_launch_bounds(s, "saxpy", 256, 1); }};
    std::array<int, 4> order = {0, 1, 2, 3};
    std::vector<std::string> results;
    do {
        std::string text = source;
        for (int step : order) {
            const auto next = steps[static_cast<std::size_t>(step)](text);
            ASSERT_TRUE(next.has_value()) << "step " << step << " of\n" << text;
            text = *next;
        }
        const source::KernelText kernel = source::find_kernel(text, "saxpy");
        std::vector<std::string> names;
        for (const source::KernelParameter& p : kernel.parameters) names.push_back(p.name);
        EXPECT_EQ(names, (std::vector<std::string>{"n", "a", "x", "y"}));
        EXPECT_TRUE(kernel.has_launch_bounds);
        EXPECT_EQ(text.substr(0, kPrelude.size()), kPrelude);
        results.push_back(text);
    } while (std::next_permutation(order.begin(), order.end()));
    // The order does not matter at all for these four.
    EXPECT_EQ(std::count(results.begin(), results.end(), results.front()),
              static_cast<std::ptrdiff_t>(results.size()))
        << results.front();
}

}  // namespace
}  // namespace optiml::propose
