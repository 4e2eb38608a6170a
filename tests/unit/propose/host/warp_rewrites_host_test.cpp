// The rewrites that change which thread does which work keep what a kernel computes: warp_per_row
// (every lane of a warp on a thread of its own, shuffles exchanging values as on the GPU,
// cuda_warp_shim.h) and coarsen_items, on the repository's thread-per-row kernels (row_norm, mvt,
// the bench's embedding gather, Kernel Tuner's CSR product), vectorize_narrow_loads (the bench's
// histogram, then coarsened and privatized) and transpose_through_shared (the naive transpose)
// as written and as the rewrites leave
// them (warp_kernels.h, generated at build time by write_rewritten_kernels), each launched with
// the grid its rewrite asks for. Sums change their order of additions under
// warp_per_row (a relative tolerance); a copy and coarsening keep every bit.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "tests/unit/propose/host/cuda_warp_shim.h"
// clang-format off
#include "warp_kernels.h"
// spmv_csr.cu's block width (its index reads the macro); the transpose's header has its own.
constexpr unsigned kSpmvWidth = block_size_x;
#undef block_size_x
#undef block_size_y
#include "tile_kernels.h"
// clang-format on

namespace {

std::vector<float> uniform(std::size_t count, float low, float high, unsigned seed) {
    std::mt19937 generator(seed);
    std::uniform_real_distribution<float> draw(low, high);
    std::vector<float> values(count);
    for (float& v : values) v = draw(generator);
    return values;
}

void expect_close(const std::vector<float>& expected, const std::vector<float>& actual,
                  float rtol) {
    ASSERT_EQ(expected.size(), actual.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
        ASSERT_NEAR(actual[i], expected[i], rtol * std::abs(expected[i]) + 1e-6f) << "at " << i;
}

unsigned blocks(int items, unsigned block) {
    return (static_cast<unsigned>(items) + block - 1) / block;
}

constexpr unsigned kBlock = 64;

TEST(WarpRewritesOnTheHost, ANormalizationGivesTheSameRowsAWarpARowAndFourRowsAThread) {
    ASSERT_TRUE(row_norm_rows::rewritten);
    ASSERT_TRUE(row_norm_coarsen::rewritten);
    const int rows = 70, cols = 100;  // a partial block; rows that no warp's stride divides
    const std::vector<float> x = uniform(rows * cols, -2.0f, 2.0f, 1);
    const std::vector<float> gamma = uniform(cols, 0.5f, 1.5f, 2);
    const std::vector<float> beta = uniform(cols, -0.5f, 0.5f, 3);
    std::vector<float> original(rows * cols, 0.0f), warp(rows * cols, 0.0f),
        coarse(rows * cols, 0.0f);
    const unsigned grid = blocks(rows, kBlock);
    run_warps(grid, kBlock, [&] {
        row_norm_original::row_norm(x.data(), gamma.data(), beta.data(), original.data(), rows,
                                    cols);
    });
    run_warps(grid * 32, kBlock, [&] {
        row_norm_rows::row_norm(x.data(), gamma.data(), beta.data(), warp.data(), rows, cols);
    });
    run_warps(blocks(grid, 4), kBlock, [&] {
        row_norm_coarsen::row_norm(x.data(), gamma.data(), beta.data(), coarse.data(), rows, cols);
    });
    expect_close(original, warp, 1e-5f);
    EXPECT_EQ(original, coarse);
}

TEST(WarpRewritesOnTheHost, AMatrixVectorProductInARegisterThenAWarpARow) {
    ASSERT_TRUE(mvt_acc_rows::rewritten);
    const int n = 77;
    std::vector<float> a = uniform(n * n, 0.0f, 1.0f, 4), y = uniform(n, 0.0f, 1.0f, 5);
    const std::vector<float> x1 = uniform(n, 0.0f, 1.0f, 6);
    std::vector<float> original = x1, warp = x1;
    run_warps(blocks(n, kBlock), kBlock,
              [&] { mvt_original::mvt_kernel1(n, a.data(), original.data(), y.data()); });
    run_warps(blocks(n, kBlock) * 32, kBlock,
              [&] { mvt_acc_rows::mvt_kernel1(n, a.data(), warp.data(), y.data()); });
    expect_close(original, warp, 1e-5f);
}

TEST(WarpRewritesOnTheHost, AnEmbeddingGatherCopiesTheSameRowsAWarpARow) {
    ASSERT_TRUE(gather_rows_rows::rewritten);
    const int rows = 70, dim = 37, entries = 50;
    const std::vector<float> table = uniform(entries * dim, -1.0f, 1.0f, 7);
    std::vector<int> index(rows);
    std::mt19937 generator(8);
    for (int& i : index) i = std::uniform_int_distribution<int>(0, entries - 1)(generator);
    std::vector<float> original(rows * dim, 0.0f), warp(rows * dim, 0.0f);
    run_warps(blocks(rows, kBlock), kBlock, [&] {
        gather_rows_original::gather_rows(table.data(), index.data(), original.data(), rows, dim);
    });
    run_warps(blocks(rows, kBlock) * 32, kBlock, [&] {
        gather_rows_rows::gather_rows(table.data(), index.data(), warp.data(), rows, dim);
    });
    EXPECT_EQ(original, warp);
}

// Kernel Tuner's CSR kernel (its block's width by the block_size_x macro): each row's
// range is read from row_ptr; rows of 0 to 40 nonzeros.
TEST(WarpRewritesOnTheHost, ACsrMatrixVectorProductGivesTheSameRowsAWarpARow) {
    ASSERT_TRUE(spmv_rows::rewritten);
    const int rows = 300, cols = 500;
    std::mt19937 generator(9);
    std::vector<int> row_ptr(rows + 1, 0), col_idx;
    for (int r = 0; r < rows; ++r) {
        const int count = std::uniform_int_distribution<int>(0, 40)(generator);
        for (int k = 0; k < count; ++k)
            col_idx.push_back(std::uniform_int_distribution<int>(0, cols - 1)(generator));
        row_ptr[r + 1] = static_cast<int>(col_idx.size());
    }
    const std::vector<float> values = uniform(col_idx.size(), -1.0f, 1.0f, 10);
    const std::vector<float> x = uniform(cols, -1.0f, 1.0f, 11);
    std::vector<float> original(rows, 0.0f), warp(rows, 0.0f);
    constexpr unsigned kWidth = kSpmvWidth;
    run_warps(blocks(rows, kWidth), kWidth, [&] {
        spmv_original::spmv_csr(rows, cols, row_ptr.data(), col_idx.data(), values.data(), x.data(),
                                original.data());
    });
    run_warps(blocks(rows, kWidth) * 32, kWidth, [&] {
        spmv_rows::spmv_csr(rows, cols, row_ptr.data(), col_idx.data(), values.data(), x.data(),
                            warp.data());
    });
    expect_close(original, warp, 1e-5f);
}

// A naive transpose staged through a shared tile (naive_transpose.cu's 16 x 16 block), on sizes
// that leave partial tiles at the right and bottom edges: the same bits.
TEST(WarpRewritesOnTheHost, ATransposeThroughASharedTileGivesTheSameBits) {
    ASSERT_TRUE(transpose_tiled::rewritten);
    const int rows = 37, cols = 45;
    const std::vector<float> in = uniform(rows * cols, -1.0f, 1.0f, 12);
    std::vector<float> original(rows * cols, 0.0f), tiled(rows * cols, 0.0f);
    const HostDim3 grid{blocks(cols, block_size_x), blocks(rows, block_size_y), 1};
    const HostDim3 block{block_size_x, block_size_y, 1};
    run_blocks(grid, block, [&] {
        transpose_original::naive_transpose(rows, cols, in.data(), original.data());
    });
    run_blocks(grid, block,
               [&] { transpose_tiled::naive_transpose(rows, cols, in.data(), tiled.data()); });
    EXPECT_EQ(original, tiled);
}

// The bench's histogram with four adjacent bytes a thread from one uchar4 load, then four such
// quads a thread, then privatized: the same counts, where the bytes are aligned and where they
// start one byte in (every item then reads its byte alone), over a count that is no multiple of
// 4 (the last quad's items read theirs alone and stop at the bound).
TEST(WarpRewritesOnTheHost, AHistogramCountsTheSameBytesFourAThreadFromOneLoad) {
    ASSERT_TRUE(histogram_bytes::rewritten);
    ASSERT_TRUE(histogram_bytes_coarsen::rewritten);
    ASSERT_TRUE(histogram_bytes_coarsen_private::rewritten);
    const int n = 4099;
    std::vector<unsigned char> bytes(n + 1);
    std::mt19937 generator(11);
    for (unsigned char& b : bytes) b = static_cast<unsigned char>(generator() % 256);
    for (const int offset : {0, 1}) {
        const unsigned char* data = bytes.data() + offset;
        std::vector<unsigned> original(256, 0), quads(256, 0), coarse(256, 0), privatized(256, 0);
        run_warps(blocks(n, kBlock), kBlock,
                  [&] { histogram_original::histogram(data, original.data(), n); });
        const unsigned per_quad = blocks(static_cast<int>(blocks(n, kBlock)), 4);
        run_warps(per_quad, kBlock, [&] { histogram_bytes::histogram(data, quads.data(), n); });
        run_warps(blocks(static_cast<int>(per_quad), 4), kBlock,
                  [&] { histogram_bytes_coarsen::histogram(data, coarse.data(), n); });
        run_warps(blocks(static_cast<int>(per_quad), 4), kBlock,
                  [&] { histogram_bytes_coarsen_private::histogram(data, privatized.data(), n); });
        EXPECT_EQ(original, quads) << "offset " << offset;
        EXPECT_EQ(original, coarse) << "offset " << offset;
        EXPECT_EQ(original, privatized) << "offset " << offset;
        unsigned total = 0;
        for (const unsigned count : original) total += count;
        EXPECT_EQ(total, static_cast<unsigned>(n));
    }
}

}  // namespace

// PolyBench's gemm staged through shared tiles 16 (8) steps deep, alone, after
// accumulate_in_register with 2 x 2 elements a thread, and after restrict with 2 x 4: the same
// bits, on blocks of 16 x 4 threads and sizes whose k is no multiple of the depth, with blocks in
// the grid's inside (staged: they pass the tiles' barriers) and at its edges (each element as
// written).
TEST(WarpRewritesOnTheHost, AMatrixProductThroughSharedTilesGivesTheSameBits) {
    ASSERT_TRUE(gemm_staged::rewritten);
    ASSERT_TRUE(gemm_acc_staged_2x2::rewritten);
    ASSERT_TRUE(gemm_restrict_acc_staged_2x4::rewritten);
    struct Size {
        int ni, nj, nk;
    };
    for (const Size s : {Size{37, 45, 21}, Size{64, 64, 40}, Size{9, 70, 1}, Size{33, 17, 0}}) {
        const std::vector<float> a = uniform(s.ni * s.nk, 0.0f, 1.0f, 13);
        const std::vector<float> b = uniform(s.nk * s.nj, 0.0f, 1.0f, 14);
        const std::vector<float> c = uniform(s.ni * s.nj, 0.0f, 1.0f, 15);
        const auto run = [&](auto kernel, unsigned rows, unsigned cols) {
            std::vector<float> out = c;
            std::vector<float> in_a = a, in_b = b;
            const HostDim3 grid{blocks(static_cast<int>(blocks(s.nj, 16)), cols),
                                blocks(static_cast<int>(blocks(s.ni, 4)), rows), 1};
            const long before = barriers_passed.load();
            run_blocks(grid, {16, 4, 1}, [&] {
                kernel(s.ni, s.nj, s.nk, 1.5f, 1.2f, in_a.data(), in_b.data(), out.data());
            });
            return std::make_pair(out, barriers_passed.load() - before);
        };
        const auto [original, none] = run(gemm_original::gemm_kernel, 1, 1);
        const auto [staged, staged_barriers] = run(gemm_staged::gemm_kernel, 1, 1);
        const auto [blocked, blocked_barriers] = run(gemm_acc_staged_2x2::gemm_kernel, 2, 2);
        const auto [wide, wide_barriers] = run(gemm_restrict_acc_staged_2x4::gemm_kernel, 2, 4);
        EXPECT_EQ(none, 0);
        EXPECT_EQ(original, staged) << s.ni << " x " << s.nj << " x " << s.nk;
        EXPECT_EQ(original, blocked) << s.ni << " x " << s.nj << " x " << s.nk;
        EXPECT_EQ(original, wide) << s.ni << " x " << s.nj << " x " << s.nk;
        // Where a block's elements lie wholly inside, it ran staged (a block of 2 x 4 elements
        // a thread spans 64 columns).
        if (s.nk > 0 && s.ni >= 8 && s.nj >= 32) {
            EXPECT_GT(staged_barriers, 0);
            EXPECT_GT(blocked_barriers, 0);
        }
        if (s.nk > 0 && s.ni >= 8 && s.nj >= 64) {
            EXPECT_GT(wide_barriers, 0);
        }
    }
}

// Stencils staged through a shared tile with their halo: the bench's 5-point stencil (its bound an
// early return, the border copied, the neighbours through a local index) and a 3 x 3 blur (its
// reach not centred on its first read), on sizes that leave partial blocks at the right and
// bottom, blocks of 16 x 4 and 32 x 2 threads: the same bits, and the staged path seen to run.
TEST(WarpRewritesOnTheHost, StencilsThroughAHaloTileGiveTheSameBits) {
    ASSERT_TRUE(stencil_halo::rewritten);
    ASSERT_TRUE(blur_halo::rewritten);
    const int rows = 37, cols = 45;
    const std::vector<float> in = uniform(rows * cols, -1.0f, 1.0f, 16);
    for (const HostDim3 block : {HostDim3{16, 4, 1}, HostDim3{32, 2, 1}}) {
        const HostDim3 grid{blocks(cols, block.x), blocks(rows, block.y), 1};
        const auto run = [&](auto kernel) {
            std::vector<float> out(rows * cols, 0.0f);
            const long before = barriers_passed.load();
            run_blocks(grid, block, [&] { kernel(in.data(), out.data()); });
            return std::make_pair(out, barriers_passed.load() - before);
        };
        const auto [stencil, none] =
            run([&](const float* i, float* o) { stencil_original::stencil2d(i, o, cols, rows); });
        const auto [stencil_staged, passed] =
            run([&](const float* i, float* o) { stencil_halo::stencil2d(i, o, cols, rows); });
        EXPECT_EQ(none, 0);
        EXPECT_GT(passed, 0);
        EXPECT_EQ(stencil, stencil_staged) << block.x << " x " << block.y;
        const auto [blur, unused] =
            run([&](const float* i, float* o) { blur_original::blur3x3(rows, cols, i, o); });
        const auto [blur_staged, blur_passed] =
            run([&](const float* i, float* o) { blur_halo::blur3x3(rows, cols, i, o); });
        EXPECT_GT(blur_passed, 0);
        EXPECT_EQ(blur, blur_staged) << block.x << " x " << block.y;
    }
}
