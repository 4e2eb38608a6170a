// The loop rewrites keep what a kernel computes, bit for bit: the repository's kernels, as
// written and as chains of rewrites leave them (rewritten_kernels.h, generated at build time by
// write_rewritten_kernels), run on the host one thread at a time over sizes that take the vector
// path, the remainder loop and the misaligned fallback, on inputs placed 0 to 3 floats past a
// 16-byte boundary.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "tests/unit/propose/host/cuda_host_shim.h"
// clang-format off
#include "rewritten_kernels.h"
// clang-format on

namespace {

// Room for `count` floats starting `offset` floats past a 16-byte boundary, filled uniform [0, 1).
class Floats {
  public:
    Floats(std::size_t count, int offset, unsigned seed)
        : storage_(count / 4 + 2), offset_(offset), count_(count) {
        std::mt19937 generator(seed);
        std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
        for (std::size_t i = 0; i < count; ++i) data()[i] = uniform(generator);
    }
    float* data() { return &storage_[0].x + offset_; }
    std::vector<float> values() const {
        const float* first = &storage_[0].x + offset_;
        return std::vector<float>(first, first + count_);
    }

  private:
    std::vector<float4> storage_;
    int offset_;
    std::size_t count_;
};

// An unused array is empty: its data() may be null, which memcmp must never see (UBSan's finding).
bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

unsigned blocks(int n, unsigned block) {
    return (static_cast<unsigned>(n) + block - 1) / block;
}

struct Variant {
    std::string chain;
    bool rewritten;
    std::function<void(int, int, int, Floats&, Floats&, Floats&)> run;  // sizes, then arrays
};

void expect_original_bits(const std::vector<Variant>& variants, const Variant& original,
                          const std::vector<std::array<int, 3>>& sizes,
                          const std::function<std::array<std::size_t, 3>(int, int, int)>& counts) {
    for (const Variant& variant : variants) {
        EXPECT_TRUE(variant.rewritten) << variant.chain << " left the kernel unchanged";
        for (const auto& [a, b, c] : sizes) {
            for (int offset = 0; offset < 4; ++offset) {
                const auto [n0, n1, n2] = counts(a, b, c);
                Floats x0(n0, offset, 1), y0(n1, offset, 2), z0(n2, offset, 3);
                Floats x1(n0, offset, 1), y1(n1, offset, 2), z1(n2, offset, 3);
                original.run(a, b, c, x0, y0, z0);
                variant.run(a, b, c, x1, y1, z1);
                EXPECT_TRUE(same_bits(z0.values(), z1.values()) &&
                            same_bits(y0.values(), y1.values()))
                    << variant.chain << " at sizes " << a << ", " << b << ", " << c << ", offset "
                    << offset;
            }
        }
    }
}

#define RBF(ns)                                                                  \
    Variant {                                                                    \
#ns, ns::rewritten, [](int n, int m, int d, Floats& x, Floats& y, Floats& k) { \
                run_grid({blocks(m, 16), blocks(n, 16), 1}, {16, 16, 1}, [&] {             \
                    ns::rbf_kernel_matrix(n, m, d, 0.1125f, x.data(), y.data(), k.data()); \
                });                                                                        \
            } \
    }

TEST(RewrittenKernelsOnTheHost, RbfKernelMatrixKeepsItsBits) {
    const std::vector<Variant> variants = {RBF(rbf_vec4), RBF(rbf_vec2), RBF(rbf_ldg_vec4),
                                           RBF(rbf_vec4_restrict_ldg_unroll)};
    expect_original_bits(
        variants, RBF(rbf_original),
        {{37, 29, 1}, {37, 29, 3}, {37, 29, 4}, {37, 29, 5}, {37, 29, 13}, {37, 29, 64}},
        [](int n, int m, int d) {
            return std::array<std::size_t, 3>{static_cast<std::size_t>(n * d),
                                              static_cast<std::size_t>(m * d),
                                              static_cast<std::size_t>(n * m)};
        });
}

#define MVT(ns)                                                                        \
    Variant {                                                                          \
#ns, ns::rewritten, [](int n, int, int, Floats& a, Floats& y1, Floats& x1) {         \
                run_grid({blocks(n, 32), 1, 1}, {32, 1, 1},                                     \
                         [&] { ns::mvt_kernel1(n, a.data(), x1.data(), y1.data()); });          \
            } \
    }

TEST(RewrittenKernelsOnTheHost, MvtKeepsItsBits) {
    const std::vector<Variant> variants = {MVT(mvt_acc),
                                           MVT(mvt_acc_vec4),
                                           MVT(mvt_acc_vec2),
                                           MVT(mvt_hoist_acc_vec4_unroll),
                                           MVT(mvt_vec4_acc_ldg_vec4),
                                           MVT(mvt_restrict_acc_vec2)};
    expect_original_bits(
        variants, MVT(mvt_original),
        {{0, 0, 0}, {1, 0, 0}, {3, 0, 0}, {4, 0, 0}, {7, 0, 0}, {64, 0, 0}, {101, 0, 0}},
        [](int n, int, int) {
            const auto s = static_cast<std::size_t>(n);
            return std::array<std::size_t, 3>{s * s, s, s};
        });
}

#define GEMM(ns)                                                                      \
    Variant {                                                                         \
#ns, ns::rewritten, [](int ni, int nj, int nk, Floats& a, Floats& b, Floats& c) {   \
                run_grid({blocks(nj, 16), blocks(ni, 4), 1}, {16, 4, 1}, [&] {                  \
                    ns::gemm_kernel(ni, nj, nk, 1.5f, 1.2f, a.data(), b.data(), c.data());      \
                });                                                                            \
            } \
    }

// Register-blocked: rows x cols elements a thread, so the grid shrinks by as much along each axis.
#define GEMM_BLOCKED(ns, rows, cols)                                                  \
    Variant {                                                                         \
#ns, ns::rewritten, [](int ni, int nj, int nk, Floats& a, Floats& b, Floats& c) {   \
                run_grid({blocks(static_cast<int>(blocks(nj, 16)), cols),                      \
                          blocks(static_cast<int>(blocks(ni, 4)), rows), 1},                   \
                         {16, 4, 1}, [&] {                                                      \
                             ns::gemm_kernel(ni, nj, nk, 1.5f, 1.2f, a.data(), b.data(),        \
                                             c.data());                                         \
                         });                                                                    \
            } \
    }

TEST(RewrittenKernelsOnTheHost, GemmKeepsItsBits) {
    const std::vector<Variant> variants = {GEMM(gemm_acc),
                                           GEMM(gemm_acc_vec4),
                                           GEMM(gemm_acc_vec2),
                                           GEMM(gemm_hoist_acc_vec4_unroll),
                                           GEMM(gemm_restrict_acc_vec2),
                                           GEMM_BLOCKED(gemm_block4x4, 4, 4),
                                           GEMM_BLOCKED(gemm_acc_block2x4, 2, 4),
                                           GEMM_BLOCKED(gemm_restrict_acc_block4x4_unroll, 4, 4)};
    expect_original_bits(
        variants, GEMM(gemm_original),
        {{5, 7, 0}, {5, 7, 1}, {33, 17, 4}, {33, 17, 7}, {9, 21, 64}, {64, 128, 9}},
        [](int ni, int nj, int nk) {
            return std::array<std::size_t, 3>{static_cast<std::size_t>(ni * nk),
                                              static_cast<std::size_t>(nk * nj),
                                              static_cast<std::size_t>(ni * nj)};
        });
}

#define ROWS(ns)                                                                   \
    Variant {                                                                      \
#ns, ns::rewritten, [](int rows, int cols, int, Floats& in, Floats& sums,        \
                                   Floats& out) {                                           \
                Floats norms(static_cast<std::size_t>(rows), 0, 4);                         \
                run_grid({blocks(rows, 8), 1, 1}, {8, 1, 1}, [&] {                          \
                    ns::row_scale(rows, cols, in.data(), norms.data(), out.data(), sums.data()); \
                });                                                                         \
            } \
    }

TEST(RewrittenKernelsOnTheHost, HoistedAndAccumulatedRowScaleKeepsItsBits) {
    const std::vector<Variant> variants = {ROWS(rows_hoist), ROWS(rows_acc), ROWS(rows_acc_hoist),
                                           ROWS(rows_hoist_acc_unroll)};
    expect_original_bits(variants, ROWS(rows_original), {{13, 0, 0}, {13, 1, 0}, {13, 9, 0}},
                         [](int rows, int cols, int) {
                             const auto r = static_cast<std::size_t>(rows);
                             const auto c = static_cast<std::size_t>(cols);
                             return std::array<std::size_t, 3>{r * c, r, r * c};
                         });
}

}  // namespace
