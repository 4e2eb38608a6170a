// C = A * B for n x n row-major matrices, written the way many Kernel Tuner kernels are: its four
// parameters only ever arrive as -D (there are no #ifndef defaults), and they size the shared
// tiles. Each thread computes tile_size_y x tile_size_x outputs of a block's
// (block_size_y * tile_size_y) x (block_size_x * tile_size_x) tile of C.
// Used by OptiML's tests: the spec's defaults must make this the original kernel everywhere.

__global__ void tiled_matmul(int n, const float* a, const float* b, float* c) {
    constexpr int rows = block_size_y * tile_size_y;
    constexpr int cols = block_size_x * tile_size_x;
    constexpr int depth = 16;
    __shared__ float a_tile[rows][depth];
    __shared__ float b_tile[depth][cols];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int thread = ty * block_size_x + tx;
    constexpr int threads = block_size_x * block_size_y;
    const int row0 = blockIdx.y * rows;
    const int col0 = blockIdx.x * cols;
    float sum[tile_size_y][tile_size_x] = {};

    for (int k0 = 0; k0 < n; k0 += depth) {
        for (int i = thread; i < rows * depth; i += threads) {
            const int r = row0 + i / depth;
            const int k = k0 + i % depth;
            a_tile[i / depth][i % depth] = r < n && k < n ? a[r * n + k] : 0.0f;
        }
        for (int i = thread; i < depth * cols; i += threads) {
            const int k = k0 + i / cols;
            const int col = col0 + i % cols;
            b_tile[i / cols][i % cols] = k < n && col < n ? b[k * n + col] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < depth; ++k)
#pragma unroll
            for (int y = 0; y < tile_size_y; ++y)
#pragma unroll
                for (int x = 0; x < tile_size_x; ++x)
                    sum[y][x] += a_tile[ty + y * block_size_y][k] * b_tile[k][tx + x * block_size_x];
        __syncthreads();
    }
    for (int y = 0; y < tile_size_y; ++y)
        for (int x = 0; x < tile_size_x; ++x) {
            const int r = row0 + ty + y * block_size_y;
            const int col = col0 + tx + x * block_size_x;
            if (r < n && col < n) c[r * n + col] = sum[y][x];
        }
}
