#include "driver/source/kernel_text.h"

#include <gtest/gtest.h>

#include <string>

#include "driver/source/rewrite_error.h"

namespace optiml::source {
namespace {

std::string span_text(const std::string& source, std::size_t begin, std::size_t end) {
    return source.substr(begin, end - begin);
}

const source::KernelParameter& parameter(const source::KernelText& kernel,
                                         const std::string& name) {
    for (const source::KernelParameter& p : kernel.parameters) {
        if (p.name == name) return p;
    }
    throw std::runtime_error("no parameter " + name);
}

TEST(FindKernel, SkipsCommentsStringsDeclarationsAndOtherKernels) {
    const std::string source = R"(// __global__ void k(float* x) { }
/* __global__ void k(int* y) { } */
const char* text = "__global__ void k(double* z) { }";
#define K __global__ void k(char* w) { }
__global__ void k(float* x);
__device__ void k2(float* x) { x[0] = 1; }
__global__ void other(float* x) { x[0] = 2; }
__global__ void k(float* x) {
    x[0] = 3;
}
)";
    const source::KernelText kernel = source::find_kernel(source, "k");
    EXPECT_EQ(kernel.name, "k");
    EXPECT_EQ(kernel.first_line, 8);
    EXPECT_EQ(kernel.last_line, 10);
    EXPECT_EQ(span_text(source, kernel.declaration_begin, kernel.name_begin), "__global__ void ");
    EXPECT_EQ(source[kernel.parameters_begin], '(');
    EXPECT_EQ(span_text(source, kernel.parameters_begin, kernel.parameters_end + 1), "(float* x)");
    EXPECT_EQ(span_text(source, kernel.body_begin, kernel.body_end), "{\n    x[0] = 3;\n}");
    ASSERT_EQ(kernel.parameters.size(), 1u);
    EXPECT_EQ(kernel.parameters[0].declaration, "float* x");
}

TEST(FindKernel, NamesAMissingOrTwiceDefinedKernel) {
    try {
        source::find_kernel("__global__ void a() {}\n__device__ void b() {}", "b");
        FAIL() << "no throw";
    } catch (const source::RewriteError& e) {
        EXPECT_NE(std::string(e.what()).find("'b'"), std::string::npos) << e.what();
    }
    try {
        source::find_kernel("__global__ void a() {}\n__global__ void a() {}", "a");
        FAIL() << "no throw";
    } catch (const source::RewriteError& e) {
        EXPECT_NE(std::string(e.what()).find("defined 2 times"), std::string::npos) << e.what();
    }
}

TEST(FindKernel, StartsTheDeclarationAtTemplateExternOrStatic) {
    const std::string templated = "template <int BLOCK, typename T>\n__global__ void k(T* x) {}";
    EXPECT_EQ(source::find_kernel(templated, "k").declaration_begin, 0u);
    EXPECT_EQ(source::find_kernel(templated, "k").first_line, 1);
    const std::string external = "int a;\nextern \"C\" __global__ void k(float* x) {}";
    EXPECT_EQ(source::find_kernel(external, "k").declaration_begin, external.find("extern"));
    const std::string with_static = "static __global__ void k() {}";
    EXPECT_EQ(source::find_kernel(with_static, "k").declaration_begin, 0u);
}

TEST(FindKernel, SeesLaunchBoundsBetweenTheReturnTypeAndTheName) {
    const std::string source =
        "__global__ void __launch_bounds__(256, 2) k(int n) {}\n__global__ void j(int n) {}";
    const source::KernelText k = source::find_kernel(source, "k");
    EXPECT_TRUE(k.has_launch_bounds);
    EXPECT_EQ(k.name_begin, source.find("k(int"));
    EXPECT_FALSE(source::find_kernel(source, "j").has_launch_bounds);
}

TEST(FindKernel, DescribesEveryKindOfParameter) {
    const std::string source = R"(#define REAL float
__global__ void k(const float* __restrict__ a, float *const b, float* __restrict c, T* d,
                  float** e, const float* const* f, float g[16], REAL* h, int n,
                  float const *i, Pair<int, float>* j, float) {}
)";
    const source::KernelText k = source::find_kernel(source, "k");
    ASSERT_EQ(k.parameters.size(), 12u);
    const source::KernelParameter a = parameter(k, "a");
    EXPECT_TRUE(a.is_pointer && a.pointee_const && a.has_restrict);
    EXPECT_EQ(a.declaration, "const float* __restrict__ a");
    EXPECT_EQ(span_text(source, a.begin, a.end), a.declaration);
    const source::KernelParameter b = parameter(k, "b");
    EXPECT_TRUE(b.is_pointer && !b.pointee_const && !b.has_restrict);
    EXPECT_TRUE(parameter(k, "c").has_restrict);
    EXPECT_TRUE(parameter(k, "d").is_pointer);
    const source::KernelParameter e = parameter(k, "e");
    EXPECT_TRUE(e.is_pointer && !e.pointee_const);
    EXPECT_EQ(e.pointer_star, source.find("* e"));
    EXPECT_TRUE(parameter(k, "f").pointee_const);
    EXPECT_FALSE(parameter(k, "g").is_pointer);  // an array: no '*' to qualify
    EXPECT_TRUE(parameter(k, "h").is_pointer);
    EXPECT_FALSE(parameter(k, "n").is_pointer);
    EXPECT_TRUE(parameter(k, "i").pointee_const);
    EXPECT_TRUE(parameter(k, "j").is_pointer);
    EXPECT_EQ(k.parameters.back().name, "");
    EXPECT_EQ(k.parameters.back().declaration, "float");
}

TEST(FindKernel, FindsLoopsTheirDepthAndUnrollPragmas) {
    const std::string source = R"(__global__ void k(float* x) {
    for (int i = 0; i < 4; ++i) {
#pragma unroll 2
        for (int j = 0; j < 4; ++j)
            for (int l = 0; l < 4; ++l) x[l] = 0;
    }
    if (x) for (int m = 0; m < 2; ++m) x[m] = 1; else x[0] = 2;
    // the last
    for (;;) break;
}
)";
    const source::KernelText k = source::find_kernel(source, "k");
    ASSERT_EQ(k.loops.size(), 5u);
    const int lines[] = {2, 4, 5, 7, 9};
    const int last_lines[] = {6, 5, 5, 7, 9};
    const int depths[] = {0, 1, 2, 0, 0};
    const bool pragmas[] = {false, true, false, false, false};
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(k.loops[i].line, lines[i]) << i;
        EXPECT_EQ(k.loops[i].last_line, last_lines[i]) << i;
        EXPECT_EQ(k.loops[i].depth, depths[i]) << i;
        EXPECT_EQ(k.loops[i].has_unroll_pragma, pragmas[i]) << i;
        EXPECT_EQ(source.substr(k.loops[i].keyword, 3), "for");
    }
}

TEST(FindKernel, DetectsWhichPointersTheBodyWrites) {
    const std::string source = R"(
__device__ void fill(float* p);
__global__ void k(float* stored, float* added, float* atomic, float* passed, float* aliased,
                  float* incremented, float* star, float* read, const float* cast,
                  float* kept_const, float* member, float* grouped) {
    stored[threadIdx.x] = read[threadIdx.x] + cast[0];
    added[2 * (threadIdx.x + 1)] += 1.0f;
    atomicAdd(&atomic[threadIdx.x], 1.0f);
    fill(passed);
    float* alias = aliased + 4;
    ++incremented[0];
    *star = 2.0f;
    *(grouped + 1) = 3.0f;
    const float* fine = kept_const + 1;
    const float4* v = reinterpret_cast<const float4*>(cast);
    float r = __ldg(&read[1]) + fine[0] + v->x + some.member[0];
    if (read == nullptr) return;
}
)";
    const source::KernelText k = source::find_kernel(source, "k");
    const std::set<std::string> expected = {"stored",  "added",       "atomic", "passed",
                                            "aliased", "incremented", "star",   "grouped"};
    EXPECT_EQ(k.written_parameters, expected);
}

TEST(UnrollPragmaFactor, ReadsTheFactorOfAnUnrollPragmaOnly) {
    EXPECT_EQ(source::unroll_pragma_factor("#pragma unroll"), "");
    EXPECT_EQ(source::unroll_pragma_factor("#  pragma   unroll 4 // four"), "4");
    EXPECT_EQ(source::unroll_pragma_factor("#pragma unroll (N * 2)"), "(N * 2)");
    EXPECT_EQ(source::unroll_pragma_factor("#pragma once"), std::nullopt);
    EXPECT_EQ(source::unroll_pragma_factor("#define unroll 4"), std::nullopt);
}

}  // namespace
}  // namespace optiml::source
