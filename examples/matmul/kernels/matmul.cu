// C = A * B for row-major fp32 matrices: A is M x K, B is K x N, C is M x N.
// Tunable in the Kernel Tuner way. The defaults are the plain untiled kernel: one thread per
// element of C, 16 x 16 threads per block, a k-loop reading A and B from global memory.
//   block_size_x, block_size_y  threads per block in x (columns of C) and y (rows of C)
//   tile_size_x, tile_size_y    outputs per thread in x and y (register tiling); a thread's
//                               outputs are block_size_x (block_size_y) apart, so the warp's
//                               global stores and shared-memory reads stay contiguous
//   use_shared_mem              0: read A and B from global memory; 1: stage tiles of A and B,
//                               tile_k deep, in shared memory
//   tile_k                      depth of the shared-memory tiles
// A block computes (block_size_y * tile_size_y) x (block_size_x * tile_size_x) elements of C.
#include "matrix_access.h"

#ifndef block_size_x
#define block_size_x 16
#endif
#ifndef block_size_y
#define block_size_y 16
#endif
#ifndef tile_size_x
#define tile_size_x 1
#endif
#ifndef tile_size_y
#define tile_size_y 1
#endif
#ifndef use_shared_mem
#define use_shared_mem 0
#endif
#ifndef tile_k
#define tile_k 16
#endif

__global__ void __launch_bounds__(block_size_x * block_size_y)
    matmul(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
           float* __restrict__ C) {
    constexpr int rows_per_block = block_size_y * tile_size_y;
    constexpr int cols_per_block = block_size_x * tile_size_x;
    const int tx = static_cast<int>(threadIdx.x);
    const int ty = static_cast<int>(threadIdx.y);
    const int block_row = static_cast<int>(blockIdx.y) * rows_per_block;
    const int block_col = static_cast<int>(blockIdx.x) * cols_per_block;

    float sums[tile_size_y][tile_size_x];
#pragma unroll
    for (int i = 0; i < tile_size_y; ++i) {
#pragma unroll
        for (int j = 0; j < tile_size_x; ++j) sums[i][j] = 0.0f;
    }

#if use_shared_mem
    constexpr int threads = block_size_x * block_size_y;
    static_assert(rows_per_block * tile_k % threads == 0, "A tile must split evenly over threads");
    static_assert(cols_per_block * tile_k % threads == 0, "B tile must split evenly over threads");
    // A's tile is stored k-major so that each step reads one row of both tiles; the padding
    // spreads the transposing stores over more banks.
    __shared__ float a_tile[tile_k][rows_per_block + 1];
    __shared__ float b_tile[tile_k][cols_per_block];
    const int thread = ty * block_size_x + tx;

    for (int k0 = 0; k0 < K; k0 += tile_k) {
        // Consecutive threads load consecutive elements of a row: coalesced.
#pragma unroll
        for (int load = 0; load < rows_per_block * tile_k / threads; ++load) {
            const int index = thread + load * threads;
            const int row = index / tile_k;
            const int k = index % tile_k;
            a_tile[k][row] = load_or_zero(A, M, K, block_row + row, k0 + k);
        }
#pragma unroll
        for (int load = 0; load < cols_per_block * tile_k / threads; ++load) {
            const int index = thread + load * threads;
            const int k = index / cols_per_block;
            const int col = index % cols_per_block;
            b_tile[k][col] = load_or_zero(B, K, N, k0 + k, block_col + col);
        }
        __syncthreads();

#pragma unroll
        for (int k = 0; k < tile_k; ++k) {
            float a[tile_size_y];
            float b[tile_size_x];
#pragma unroll
            for (int i = 0; i < tile_size_y; ++i) a[i] = a_tile[k][ty + i * block_size_y];
#pragma unroll
            for (int j = 0; j < tile_size_x; ++j) b[j] = b_tile[k][tx + j * block_size_x];
#pragma unroll
            for (int i = 0; i < tile_size_y; ++i) {
#pragma unroll
                for (int j = 0; j < tile_size_x; ++j) sums[i][j] += a[i] * b[j];
            }
        }
        __syncthreads();
    }
#else
    const float* a_rows[tile_size_y];
#pragma unroll
    for (int i = 0; i < tile_size_y; ++i) {
        a_rows[i] = A + static_cast<long long>(clamp_to_last(block_row + ty + i * block_size_y, M)) * K;
    }
    int b_cols[tile_size_x];
#pragma unroll
    for (int j = 0; j < tile_size_x; ++j) b_cols[j] = clamp_to_last(block_col + tx + j * block_size_x, N);

    const float* b_row = B;
    for (int k = 0; k < K; ++k, b_row += N) {
        float a[tile_size_y];
        float b[tile_size_x];
#pragma unroll
        for (int i = 0; i < tile_size_y; ++i) a[i] = a_rows[i][k];
#pragma unroll
        for (int j = 0; j < tile_size_x; ++j) b[j] = b_row[b_cols[j]];
#pragma unroll
        for (int i = 0; i < tile_size_y; ++i) {
#pragma unroll
            for (int j = 0; j < tile_size_x; ++j) sums[i][j] += a[i] * b[j];
        }
    }
#endif

#pragma unroll
    for (int i = 0; i < tile_size_y; ++i) {
        const int row = block_row + ty + i * block_size_y;
#pragma unroll
        for (int j = 0; j < tile_size_x; ++j) {
            const int col = block_col + tx + j * block_size_x;
            if (row < M && col < N) C[static_cast<long long>(row) * N + col] = sums[i][j];
        }
    }
}
