// out = transpose(in) for a row-major rows x cols matrix `in` (out is cols x rows), the naive
// way: one thread per element, reading along a row of `in` and writing down a column of `out`.
// The reads of a warp are coalesced; its writes are not (consecutive threads write elements
// `rows` floats apart). This is the "naive transpose" that NVIDIA's transpose articles start from.
//
// Parameters (they only ever arrive as -D; the spec's defaults are the original kernel):
//   block_size_x, block_size_y  the thread block; thread (x, y) of the grid moves in[y][x]
// The output is an exact copy: every configuration gives the same bits.
#ifndef block_size_x
#define block_size_x 16
#endif
#ifndef block_size_y
#define block_size_y 16
#endif

__global__ void naive_transpose(int rows, int cols, const float* in, float* out) {
    int x = blockIdx.x * block_size_x + threadIdx.x;  // column of in, row of out
    int y = blockIdx.y * block_size_y + threadIdx.y;  // row of in, column of out
    if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}
