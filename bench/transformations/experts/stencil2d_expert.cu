// The expert's 5-point stencil (written for this bench): each block stages a tile of
// block_size_x + 2 by rows + 2 floats in shared memory (with its halo), each thread computes
// `rows_per_thread` points down a column from the tile, so each input is read from global memory
// about once.
//
// Parameters: block_size_x (threads across, one column each), rows_per_thread.
#ifndef block_size_x
#define block_size_x 64
#endif
#ifndef rows_per_thread
#define rows_per_thread 8
#endif

__global__ void stencil2d_expert(const float* in, float* out, int width, int height) {
    constexpr int kRows = rows_per_thread;
    __shared__ float tile[kRows + 2][block_size_x + 2];
    const int x0 = blockIdx.x * block_size_x;
    const int y0 = blockIdx.y * kRows;
    // Stage the tile and its halo, clamped at the grid's edges (those points are only copied).
    for (int r = 0; r < kRows + 2; ++r) {
        const int y = min(max(y0 + r - 1, 0), height - 1);
        for (int c = threadIdx.x; c < block_size_x + 2; c += block_size_x) {
            const int x = min(max(x0 + c - 1, 0), width - 1);
            tile[r][c] = in[y * width + x];
        }
    }
    __syncthreads();
    const int x = x0 + threadIdx.x;
    if (x >= width) return;
    const int c = threadIdx.x + 1;
    for (int r = 1; r <= kRows; ++r) {
        const int y = y0 + r - 1;
        if (y >= height) return;
        const int i = y * width + x;
        if (x == 0 || y == 0 || x == width - 1 || y == height - 1)
            out[i] = tile[r][c];
        else
            out[i] = 0.2f * (tile[r][c] + tile[r][c - 1] + tile[r][c + 1] + tile[r - 1][c] +
                             tile[r + 1][c]);
    }
}
