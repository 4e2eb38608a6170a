// The loop rewrites (vectorize_loads, hoist_invariant_loads, accumulate_in_register): the exact
// text they write, and the preconditions under which they decline.
#include <gtest/gtest.h>

#include <string>

#include "driver/propose/detail/rewrites.h"
#include "driver/source/kernel_text.h"
#include "driver/source/rewrite_error.h"

namespace optiml::propose {
namespace {

const std::string kNorms = R"(__global__ void dist(int n, int d, const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < d; ++k) {
        float v = x[i * d + k];
        s += v * v;
    }
    out[i] = s;
}
)";

TEST(VectorizeLoads, Float4LanesInOrderThenTheOriginalLoopForTheRest) {
    const std::string expected = R"(__global__ void dist(int n, int d, const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    {
        int k = 0;
        if (reinterpret_cast<unsigned long long>(x + (i * d) + k) % 16 == 0) {
            for (; k + 3 < d; k += 4) {
                const float4 x_vec = *reinterpret_cast<const float4*>(x + (i * d) + k);
                {
                    float v = x_vec.x;
                    s += v * v;
                }
                {
                    float v = x_vec.y;
                    s += v * v;
                }
                {
                    float v = x_vec.z;
                    s += v * v;
                }
                {
                    float v = x_vec.w;
                    s += v * v;
                }
            }
        }
        for (; k < d; ++k) {
            float v = x[i * d + k];
            s += v * v;
        }
    }
    out[i] = s;
}
)";
    EXPECT_EQ(vectorize_loads(kNorms, "dist", 4, 4), expected);
}

TEST(VectorizeLoads, Float2OfTwoStreamsWithOtherUsesOfTheIndexShifted) {
    const std::string source =
        R"(__global__ void dot(int n, const float* a, const float* b, float* out) {
    float s = 0.0f;
    for (int k = 1; k < n - 1; k++)
        s += a[k + blockIdx.x] * b[k] * k;
    out[blockIdx.x] = s;
}
)";
    const std::string expected =
        R"(__global__ void dot(int n, const float* a, const float* b, float* out) {
    float s = 0.0f;
    {
        int k = 1;
        if ((reinterpret_cast<unsigned long long>(a + (blockIdx.x) + k) |
             reinterpret_cast<unsigned long long>(b + k)) % 8 == 0) {
            for (; k + 1 < (n - 1); k += 2) {
                const float2 a_vec = *reinterpret_cast<const float2*>(a + (blockIdx.x) + k);
                const float2 b_vec = *reinterpret_cast<const float2*>(b + k);
                { s += a_vec.x * b_vec.x * k; }
                { s += a_vec.y * b_vec.y * (k + 1); }
            }
        }
        for (; k < n - 1; ++k)
            s += a[k + blockIdx.x] * b[k] * k;
    }
    out[blockIdx.x] = s;
}
)";
    EXPECT_EQ(vectorize_loads(source, "dot", 3, 2), expected);
}

TEST(VectorizeLoads, LoadsThroughLdgStayThereAndThePragmaMovesToTheVectorLoop) {
    const std::string source =
        "__global__ void k(int d, const float* x, float* out) {\n"
        "    float s = 0.0f;\n"
        "#pragma unroll 2\n"
        "    for (int c = 0; c < d; ++c) s += __ldg(&x[c]);\n"
        "    out[0] = s;\n"
        "}\n";
    const auto result = vectorize_loads(source, "k", 4, 4);
    ASSERT_TRUE(result.has_value());
    EXPECT_NE(result->find("            #pragma unroll 2\n            for (; c + 3 < d; c += 4) {\n"
                           "                const float4 x_vec = "
                           "__ldg(reinterpret_cast<const float4*>(x + c));\n"
                           "                { s += x_vec.x; }\n"),
              std::string::npos)
        << *result;
    EXPECT_NE(result->find("        for (; c < d; ++c) s += __ldg(&x[c]);\n    }\n    out[0]"),
              std::string::npos)
        << *result;
    EXPECT_EQ(result->find("#pragma unroll 2\n    {"), std::string::npos) << *result;
}

TEST(VectorizeLoads, DeclinesWhereTheLanesCouldNotRunTheBodyAsIs) {
    const auto loop = [](const std::string& header, const std::string& body,
                         const std::string& x = "const float* x") {
        return "__global__ void k(int d, int b, " + x + ", float* out) {\n    float s = 0;\n    " +
               header + " {\n        " + body + "\n    }\n    out[0] = s;\n}\n";
    };
    const std::string loop_header = "for (int c = 0; c < d; ++c)";
    ASSERT_TRUE(vectorize_loads(loop(loop_header, "s += x[b + c];"), "k", 3, 4).has_value());
    // A store in the loop, a way out, a call that is not pure math, a barrier.
    EXPECT_EQ(vectorize_loads(loop(loop_header, "s += x[c]; out[c] = s;"), "k", 3, 4),
              std::nullopt);
    EXPECT_EQ(vectorize_loads(loop(loop_header, "if (s > 1) break; s += x[c];"), "k", 3, 4),
              std::nullopt);
    EXPECT_EQ(vectorize_loads(loop(loop_header, "s += f(x[c]);"), "k", 3, 4), std::nullopt);
    EXPECT_EQ(vectorize_loads(loop(loop_header, "s += x[c]; __syncthreads();"), "k", 3, 4),
              std::nullopt);
    EXPECT_NE(vectorize_loads(loop(loop_header, "s += expf(x[c]);"), "k", 3, 4), std::nullopt);
    // Not unit stride, or a base the loop changes, or a bound it changes.
    EXPECT_EQ(vectorize_loads(loop(loop_header, "s += x[2 * c];"), "k", 3, 4), std::nullopt);
    EXPECT_EQ(vectorize_loads(loop(loop_header, "s += x[b + c]; ++b;"), "k", 3, 4), std::nullopt);
    EXPECT_EQ(vectorize_loads(loop(loop_header, "s += x[c]; d -= 1;"), "k", 3, 4), std::nullopt);
    EXPECT_EQ(vectorize_loads(loop("for (int c = 0; c < d; c += 2)", "s += x[c];"), "k", 3, 4),
              std::nullopt);
    EXPECT_EQ(vectorize_loads(loop("for (int c = 0; c <= d; ++c)", "s += x[c];"), "k", 3, 4),
              std::nullopt);
    // Not floats, or a pointer the kernel writes.
    EXPECT_EQ(vectorize_loads(loop(loop_header, "s += x[c];", "const int* x"), "k", 3, 4),
              std::nullopt);
    EXPECT_TRUE(vectorize_loads(loop(loop_header, "s += x[c];", "float* x"), "k", 3, 4));
    const std::string written =
        "__global__ void k(int d, float* x) {\n    float s = 0;\n"
        "    for (int c = 0; c < d; ++c) s += x[c];\n    x[0] = s;\n}\n";
    EXPECT_EQ(vectorize_loads(written, "k", 3, 4), std::nullopt);
    EXPECT_EQ(vectorize_loads(kNorms, "dist", 7, 4), std::nullopt);  // no loop there
    EXPECT_THROW(vectorize_loads(kNorms, "dist", 4, 3), source::RewriteError);
}

TEST(VectorizeLoads, AppliedOnceLeavesNoLoopToVectorizeAgain) {
    const auto once = vectorize_loads(kNorms, "dist", 4, 4);
    ASSERT_TRUE(once.has_value());
    for (const source::KernelLoop& loop : source::find_kernel(*once, "dist").loops) {
        EXPECT_EQ(vectorize_loads(*once, "dist", loop.line, 4), std::nullopt) << loop.line;
        EXPECT_EQ(vectorize_loads(*once, "dist", loop.line, 2), std::nullopt) << loop.line;
    }
}

const std::string kScale =
    R"(__global__ void scale(int rows, int cols, const float* in, const float* norms, float* out, float* sums) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = 0; j < cols; ++j) {
        out[row * cols + j] = in[row * cols + j] / norms[row];
        sums[row] += out[row * cols + j];
    }
}
)";

TEST(HoistInvariantLoads, LoadsOnceBeforeALoopThatRunsAtLeastOnce) {
    const std::string expected =
        R"(__global__ void scale(int rows, int cols, const float* in, const float* norms, float* out, float* sums) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (0 < cols) {
        const float norms_hoisted = norms[row];
        for (int j = 0; j < cols; ++j) {
            out[row * cols + j] = in[row * cols + j] / norms_hoisted;
            sums[row] += out[row * cols + j];
        }
    }
}
)";
    EXPECT_EQ(hoist_invariant_loads(kScale, "scale", 3), expected);
}

TEST(HoistInvariantLoads, DeclinesWithoutAStoreAGuardedLoadOrAWrittenPointer) {
    const auto kernel = [](const std::string& params, const std::string& body) {
        return "__global__ void k(int n, int i, " + params +
               ") {\n    float s = 0;\n    for (int j = 0; j < n; ++j) {\n        " + body +
               "\n    }\n    out[0] = s;\n}\n";
    };
    const std::string params = "const float* w, const float* x, float* out";
    ASSERT_TRUE(hoist_invariant_loads(kernel(params, "out[j] = w[i] * x[j];"), "k", 3));
    // No store: the compiler hoists it itself.
    EXPECT_EQ(hoist_invariant_loads(kernel(params, "s += w[i] * x[j];"), "k", 3), std::nullopt);
    // Only under a condition: hoisted, it could read where the loop never does.
    EXPECT_EQ(hoist_invariant_loads(kernel(params, "if (j < i) out[j] = w[i];"), "k", 3),
              std::nullopt);
    EXPECT_EQ(hoist_invariant_loads(kernel(params, "out[j] = j < i ? w[i] : 0;"), "k", 3),
              std::nullopt);
    // The index changes, the pointer is written, the loop may leave early.
    EXPECT_EQ(hoist_invariant_loads(kernel(params, "out[j] = w[i]; ++i;"), "k", 3), std::nullopt);
    EXPECT_EQ(
        hoist_invariant_loads(
            kernel("float* w, const float* x, float* out", "out[j] = w[i]; w[j] = 0;"), "k", 3),
        std::nullopt);
    EXPECT_EQ(hoist_invariant_loads(kernel(params, "out[j] = w[i]; if (s) return;"), "k", 3),
              std::nullopt);
    // Written by the kernel, but not in this loop (PolyBench's gramschmidt_kernel3): hoisted;
    // written in it, or its pointer copied: not.
    const std::string gram =
        "__global__ void g(int m, int n, int j, float* a, float* r) {\n"
        "    r[j] = 0;\n"
        "    for (int i = 0; i < m; i++) r[j] += a[i * n + j];\n"
        "    for (int i = 0; i < m; i++) a[i * n + j] -= r[j];\n}\n";
    const auto hoisted = hoist_invariant_loads(gram, "g", 4);
    ASSERT_TRUE(hoisted.has_value());
    EXPECT_NE(hoisted->find("        const float r_hoisted = r[j];\n"
                            "        for (int i = 0; i < m; i++) a[i * n + j] -= r_hoisted;\n"),
              std::string::npos)
        << *hoisted;
    EXPECT_EQ(hoist_invariant_loads(gram, "g", 3), std::nullopt);  // r[j] is written there
    std::string copied = gram;
    copied.insert(copied.rfind('}'), "    float* q = r;\n");
    EXPECT_EQ(hoist_invariant_loads(copied, "g", 4), std::nullopt);
}

TEST(AccumulateInRegister, AccumulatesLocallyAndStoresOnceAfterTheLoop) {
    const std::string expected =
        R"(__global__ void scale(int rows, int cols, const float* in, const float* norms, float* out, float* sums) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (0 < cols) {
        float sums_acc = sums[row];
        for (int j = 0; j < cols; ++j) {
            out[row * cols + j] = in[row * cols + j] / norms[row];
            sums_acc += out[row * cols + j];
        }
        sums[row] = sums_acc;
    }
}
)";
    EXPECT_EQ(accumulate_in_register(kScale, "scale", 3), expected);
    // Composed with the hoist, either order: both edits, each loop guard kept.
    const auto both =
        hoist_invariant_loads(*accumulate_in_register(kScale, "scale", 3), "scale", 5);
    ASSERT_TRUE(both.has_value());
    EXPECT_NE(both->find("norms_hoisted;\n                sums_acc +="), std::string::npos)
        << *both;
    const auto other =
        accumulate_in_register(*hoist_invariant_loads(kScale, "scale", 3), "scale", 5);
    ASSERT_TRUE(other.has_value());
    EXPECT_NE(other->find("norms_hoisted;\n                sums_acc +="), std::string::npos)
        << *other;
}

TEST(AccumulateInRegister, DeclinesWhereTheElementIsNotTheLoopsAlone) {
    const auto kernel = [](const std::string& body, const std::string& after = "") {
        return "__global__ void k(int n, int i, const float* x, float* out) {\n"
               "    for (int j = 0; j < n; ++j) {\n        " +
               body + "\n    }\n" + after + "}\n";
    };
    ASSERT_TRUE(accumulate_in_register(kernel("out[i] += x[j];"), "k", 2));
    ASSERT_TRUE(accumulate_in_register(kernel("out[i] = out[i] * x[j];"), "k", 2));
    // Another element of the same array, a read through another name, a copy of the pointer.
    EXPECT_EQ(accumulate_in_register(kernel("out[i] += x[j]; out[j] = 0;"), "k", 2), std::nullopt);
    EXPECT_EQ(accumulate_in_register(kernel("out[i] += x[j];", "    float* o = out;\n"), "k", 2),
              std::nullopt);
    EXPECT_EQ(
        accumulate_in_register(kernel("out[i] += x[j];", "    atomicAdd(&out[0], 1);\n"), "k", 2),
        std::nullopt);
    // Read but never written; written only under a condition; a changing index; an early exit.
    EXPECT_EQ(accumulate_in_register(kernel("float v = out[i] * x[j];"), "k", 2), std::nullopt);
    EXPECT_EQ(accumulate_in_register(kernel("if (x[j] > 0) out[i] += x[j];"), "k", 2),
              std::nullopt);
    EXPECT_EQ(accumulate_in_register(kernel("out[i] += x[j]; ++i;"), "k", 2), std::nullopt);
    EXPECT_EQ(accumulate_in_register(kernel("out[i] += x[j]; if (out[i] > 1) return;"), "k", 2),
              std::nullopt);
    EXPECT_EQ(accumulate_in_register(kernel("out[i] += x[j]; __syncthreads();"), "k", 2),
              std::nullopt);
}

// PolyBench/GPU's C89 loops, tab-indented: the variable declared before the loop is read as the
// loop's own; the rewrites indent with tabs, and chain.
TEST(LoopRewrites, C89LoopsAccumulatedThenVectorized) {
    const std::string source =
        "__global__ void mv(int n, float *a, float *x1, float *y_1)\n{\n"
        "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tint j;\n"
        "\tfor(j=0; j < n; j++)\n\t\tx1[i] += a[i * n + j] * y_1[j];\n}\n";
    const std::string accumulated =
        "__global__ void mv(int n, float *a, float *x1, float *y_1)\n{\n"
        "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tint j;\n"
        "\tif (0 < n) {\n\t\tfloat x1_acc = x1[i];\n"
        "\t\tfor(j=0; j < n; j++)\n\t\t\tx1_acc += a[i * n + j] * y_1[j];\n"
        "\t\tx1[i] = x1_acc;\n\t}\n}\n";
    EXPECT_EQ(vectorize_loads(source, "mv", 5, 4), std::nullopt);  // the loop stores x1[i]
    ASSERT_EQ(accumulate_in_register(source, "mv", 5), accumulated);
    const std::string vectorized =
        "__global__ void mv(int n, float *a, float *x1, float *y_1)\n{\n"
        "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tint j;\n"
        "\tif (0 < n) {\n\t\tfloat x1_acc = x1[i];\n"
        "\t\t{\n\t\t\tj = 0;\n"
        "\t\t\tif ((reinterpret_cast<unsigned long long>(a + (i * n) + j) |\n"
        "\t\t\t     reinterpret_cast<unsigned long long>(y_1 + j)) % 16 == 0) {\n"
        "\t\t\t\tfor (; j + 3 < n; j += 4) {\n"
        "\t\t\t\t\tconst float4 a_vec = *reinterpret_cast<const float4*>(a + (i * n) + j);\n"
        "\t\t\t\t\tconst float4 y_1_vec = *reinterpret_cast<const float4*>(y_1 + j);\n"
        "\t\t\t\t\t{ x1_acc += a_vec.x * y_1_vec.x; }\n"
        "\t\t\t\t\t{ x1_acc += a_vec.y * y_1_vec.y; }\n"
        "\t\t\t\t\t{ x1_acc += a_vec.z * y_1_vec.z; }\n"
        "\t\t\t\t\t{ x1_acc += a_vec.w * y_1_vec.w; }\n"
        "\t\t\t\t}\n\t\t\t}\n"
        "\t\t\tfor (; j < n; ++j)\n\t\t\t\tx1_acc += a[i * n + j] * y_1[j];\n"
        "\t\t}\n\t\tx1[i] = x1_acc;\n\t}\n}\n";
    EXPECT_EQ(vectorize_loads(accumulated, "mv", 7, 4), vectorized);
    // A loop variable used after the loop is not the loop's own: nothing is rewritten.
    std::string used_after = source;
    used_after.insert(used_after.rfind('}'), "\tx1[0] = j;\n");
    EXPECT_EQ(accumulate_in_register(used_after, "mv", 5), std::nullopt);
}

}  // namespace
}  // namespace optiml::propose
