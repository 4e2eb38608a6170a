// cooperate_rows: a kernel written one thread per row becomes one warp per row. What it writes
// (every line in place), that NVRTC compiles it for sm_90 (no GPU needed), and where it must
// decline because a warp sharing the row would change the results. The GPU test
// gpu.cooperative_rows runs the rewritten kernel against the original.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "driver/propose/detail/rewrites.h"
#include "tests/unit/propose/rewritten_text.h"

namespace optiml::propose {
namespace {

// A normalization as it is often first written: one thread a row, three passes over it.
const std::string kRowNorm =
    R"(__global__ void row_norm(const float* x, float* y, const float* gamma, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const float* xr = x + (long)row * cols;
    float mean = 0.0f;
    for (int j = 0; j < cols; ++j) mean += xr[j];
    mean /= cols;
    float var = 0.0f;
    for (int j = 0; j < cols; ++j) {
        float d = xr[j] - mean;
        var += d * d;
    }
    float inv = rsqrtf(var / cols + 1e-5f);
    for (int j = 0; j < cols; j++) y[(long)row * cols + j] = (xr[j] - mean) * inv * gamma[j];
}
)";

// The largest magnitude of a row, written out once per row.
const std::string kRowMax =
    R"(__global__ void row_max(const float* x, float* out, int rows, int cols) {
    const int r = threadIdx.x + blockIdx.x * blockDim.x;
    if (r < rows) {
        float m = 0.0f;
#pragma unroll 4
        for (int j = 0; j < cols; ++j)
            m = fmaxf(m, fabsf(x[r * cols + j]));
        out[r] = m;
    }
}
)";

using testing::compiles;
using testing::lines;

bool has(const std::string& text, const std::string& piece) {
    return text.find(piece) != std::string::npos;
}

TEST(CooperativeRows, ANormalizationSharesEachRowAmongAWarpsLanes) {
    const auto text = cooperate_rows(kRowNorm, "row_norm");
    ASSERT_TRUE(text);
    EXPECT_EQ(lines(*text), lines(kRowNorm));
    EXPECT_TRUE(has(*text,
                    "int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32; const int "
                    "optiml_lane = static_cast<int>(threadIdx.x % 32u);"))
        << *text;
    // Both sums: the value before the loop counted once (lane 0), the lanes' partial sums
    // combined after it, so every lane holds the row's total for the code that follows.
    EXPECT_TRUE(has(*text,
                    "if (optiml_lane != 0) mean = 0; for (int j = 0 + optiml_lane; j < "
                    "cols; j += 32) mean += xr[j]; for (int optiml_offset = 16; "
                    "optiml_offset > 0; optiml_offset /= 2) { mean += "
                    "__shfl_xor_sync(0xffffffffu, mean, optiml_offset); }"))
        << *text;
    EXPECT_TRUE(has(*text, "var += __shfl_xor_sync(0xffffffffu, var, optiml_offset);"));
    // The store of each element: lanes take every 32nd, nothing to combine.
    EXPECT_TRUE(has(*text,
                    "for (int j = 0 + optiml_lane; j < cols; j += 32) y[(long)row * cols "
                    "+ j] = (xr[j] - mean) * inv * gamma[j];\n"))
        << *text;
    EXPECT_TRUE(has(*text, "mean /= cols;"));  // after the loop, as written
    EXPECT_TRUE(compiles(*text, "row_norm"));
    EXPECT_FALSE(cooperate_rows(*text, "row_norm")) << "applied twice";
}

TEST(CooperativeRows, AMaximumIsCombinedByItsOwnFunctionAndKeepsItsPragma) {
    const auto text = cooperate_rows(kRowMax, "row_max");
    ASSERT_TRUE(text);
    EXPECT_EQ(lines(*text), lines(kRowMax));
    EXPECT_TRUE(has(*text, "const int r = (threadIdx.x + blockIdx.x * blockDim.x) / 32;"));
    EXPECT_TRUE(has(*text, "#pragma unroll 4\n        for (int j = 0 + optiml_lane;")) << *text;
    EXPECT_TRUE(has(*text, "m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, optiml_offset));"));
    EXPECT_FALSE(has(*text, "m = 0;")) << "a maximum needs no zeroing: every lane starts at m";
    EXPECT_TRUE(compiles(*text, "row_max"));
}

// A CSR matrix-vector product as Kernel Tuner writes it (the block's width by its macro): each
// row's range is read from row_ptr, which the kernel never writes, so every lane reads the same.
TEST(CooperativeRows, ACsrRowWhoseRangeIsReadFromMemoryIsShared) {
    const std::string spmv =
        R"(__global__ void spmv(int rows, const int* row_ptr, const int* col_idx, const float* values,
                     const float* x, float* y) {
    const int row = blockIdx.x * block_size_x + threadIdx.x;
    if (row >= rows) return;
    float sum = 0.0f;
    const int end = row_ptr[row + 1];
    for (int k = row_ptr[row]; k < end; ++k) sum += values[k] * x[col_idx[k]];
    y[row] = sum;
}
)";
    const auto text = cooperate_rows(spmv, "spmv");
    ASSERT_TRUE(text);
    EXPECT_TRUE(has(*text, "const int row = (blockIdx.x * block_size_x + threadIdx.x) / 32;"));
    EXPECT_TRUE(has(*text, "for (int k = (row_ptr[row]) + optiml_lane; k < end; k += 32)"))
        << *text;
    EXPECT_TRUE(compiles("#define block_size_x 128\n" + *text, "spmv"));
    // A range read from memory the kernel also writes may change under the lanes: declined.
    std::string written = spmv;
    written.replace(written.find("const int* row_ptr"), 18, "int* row_ptr");
    written.replace(written.find("y[row] = sum;"), 13, "y[row] = sum; row_ptr[rows] = 0;");
    EXPECT_FALSE(cooperate_rows(written, "spmv")) << "row_ptr written";
}

// A softmax as it is often first written: the maximum kept by a comparison, the exponentials
// stored and summed (in double), then scaled in place.
TEST(CooperativeRows, ASoftmaxsComparedMaximumAndItsSumAreCombined) {
    const std::string softmax =
        R"(__global__ void softmax(float* out, const float* inp, int N, int C) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        const float* inp_row = inp + i * C;
        float* out_row = out + i * C;
        float maxval = -1e30f;
        for (int j = 0; j < C; j++) {
            if (inp_row[j] > maxval) {
                maxval = inp_row[j];
            }
        }
        double sum = 0.0;
        for (int j = 0; j < C; j++) {
            out_row[j] = expf(inp_row[j] - maxval);
            sum += out_row[j];
        }
        for (int j = 0; j < C; j++) {
            out_row[j] /= (float)sum;
        }
    }
}
)";
    const auto text = cooperate_rows(softmax, "softmax");
    ASSERT_TRUE(text);
    EXPECT_EQ(lines(*text), lines(softmax));
    EXPECT_TRUE(has(*text,
                    "{ const auto maxval_lane = __shfl_xor_sync(0xffffffffu, maxval, "
                    "optiml_offset); if (maxval_lane > maxval) maxval = maxval_lane; }"))
        << *text;
    EXPECT_TRUE(has(*text, "sum += __shfl_xor_sync(0xffffffffu, sum, optiml_offset);"));
    EXPECT_TRUE(compiles(*text, "softmax"));
    // A comparison that keeps something else than the compared value is no maximum.
    std::string other = softmax;
    other.replace(other.find("maxval = inp_row[j];"), 20, "maxval = inp_row[0];");
    EXPECT_FALSE(cooperate_rows(other, "softmax"));
}

// Each kernel below would compute something else if 32 lanes shared its row.
TEST(CooperativeRows, DeclinesWhereLanesSharingARowWouldChangeTheResult) {
    const auto declines = [](const std::string& body) {
        const std::string text =
            "__global__ void k(const float* x, float* out, int rows, int cols) {\n" + body + "}\n";
        return !cooperate_rows(text, "k");
    };
    const std::string row = "    int row = blockIdx.x * blockDim.x + threadIdx.x;\n";
    // The sum the cases below spoil, each one way.
    EXPECT_FALSE(declines(row + "    float s = 0;\n"
                                "    for (int j = 0; j < cols; ++j) s += x[row * cols + j];\n"
                                "    out[row] = s;\n"));
    // A cast is no call with effects.
    EXPECT_FALSE(declines(row + "    float s = 0;\n"
                                "    for (int j = 0; j < cols; ++j) s += x[row * cols + j];\n"
                                "    out[row] = s / static_cast<float>(cols);\n"));
    // A second use of the thread index: the lanes would not know which part is theirs.
    EXPECT_TRUE(declines(row + "    float s = threadIdx.x;\n"
                               "    for (int j = 0; j < cols; ++j) s += x[row * cols + j];\n"
                               "    out[row] = s;\n"));
    // A store inside the loop that every iteration makes to one element.
    EXPECT_TRUE(
        declines(row + "    for (int j = 0; j < cols; ++j) out[row] += x[row * cols + j];\n"));
    // 32 lanes each adding to one element outside the loops.
    EXPECT_TRUE(declines(row + "    float s = 0;\n"
                               "    for (int j = 0; j < cols; ++j) s += x[row * cols + j];\n"
                               "    out[row] += s;\n"));
    // An atomic outside the loops would run 32 times.
    EXPECT_TRUE(declines(row + "    float s = 0;\n"
                               "    for (int j = 0; j < cols; ++j) s += x[row * cols + j];\n"
                               "    atomicAdd(&out[0], s);\n"));
    // A value that depends on the order of the iterations.
    EXPECT_TRUE(declines(row +
                         "    float s = 0;\n"
                         "    for (int j = 0; j < cols; ++j) s = s * 0.5f + x[row * cols + j];\n"
                         "    out[row] = s;\n"));
    // The accumulator read inside its loop.
    EXPECT_TRUE(declines(row + "    float s = 1;\n"
                               "    for (int j = 0; j < cols; ++j) s += s * x[row * cols + j];\n"
                               "    out[row] = s;\n"));
    // A loop that leaves early.
    EXPECT_TRUE(declines(row +
                         "    float s = 0;\n"
                         "    for (int j = 0; j < cols; ++j) { if (x[j] < 0) break; s += x[j]; }\n"
                         "    out[row] = s;\n"));
    // A loop that is the body of an `if`: its shuffles would need to be inside it.
    EXPECT_TRUE(declines(row + "    float s = 0;\n"
                               "    if (row < rows) for (int j = 0; j < cols; ++j) s += x[j];\n"
                               "    out[row] = s;\n"));
    // A barrier, and a thread-per-row kernel with no loop to share.
    EXPECT_TRUE(declines(row + "    float s = 0;\n"
                               "    for (int j = 0; j < cols; ++j) s += x[row * cols + j];\n"
                               "    __syncthreads();\n    out[row] = s;\n"));
    EXPECT_TRUE(declines(row + "    out[row] = x[row];\n"));
    // A stencil's few neighbours are no row to share.
    EXPECT_TRUE(declines(row + "    float s = 0;\n"
                               "    for (int j = -4; j <= 4; ++j) s += x[row + j];\n"
                               "    out[row] = s;\n"));
    // A grid-stride loop over rows: its row is a loop variable, not one declaration.
    EXPECT_TRUE(
        declines("    for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < rows; "
                 "row += blockDim.x * gridDim.x) out[row] = x[row];\n"));
}

}  // namespace
}  // namespace optiml::propose
