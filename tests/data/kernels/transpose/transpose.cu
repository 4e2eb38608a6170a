// out = transpose(in) for a row-major rows x cols matrix `in` (out is cols x rows), through a
// shared-memory tile so that both the loads and the stores of a warp are coalesced.
//
// Parameters (they only ever arrive as -D; the spec's defaults are the original kernel):
//   tile_dim         the tile is tile_dim x tile_dim floats; a block has tile_dim x block_rows
//                    threads
//   block_rows       rows of the tile a block moves per step (each thread moves
//                    tile_dim / block_rows elements of a tile)
//   padding          1: one float more per row of the shared tile, so that reading a column of
//                    it hits 32 different banks
//   tiles_per_block  tiles a block transposes one after another, going down the matrix's rows
// Elements outside the matrix (partial tiles at its right and bottom edges) are neither read
// nor written. The output is an exact copy: every configuration gives the same bits.

__global__ void __launch_bounds__(tile_dim * block_rows)
    transpose(int rows, int cols, const float* in, float* out) {
    __shared__ float tile[tile_dim][tile_dim + padding];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int col0 = blockIdx.x * tile_dim;  // the tile's first column of `in`
    for (int k = 0; k < tiles_per_block; ++k) {
        const int row0 = (blockIdx.y * tiles_per_block + k) * tile_dim;  // its first row of `in`
        if (row0 >= rows) break;  // the same for every thread of the block
        if (k > 0) __syncthreads();  // the previous tile has been read out
#pragma unroll
        for (int j = ty; j < tile_dim; j += block_rows) {
            const int r = row0 + j;
            const int c = col0 + tx;
            if (r < rows && c < cols) tile[j][tx] = in[static_cast<long long>(r) * cols + c];
        }
        __syncthreads();
        // Row col0 + j of `out` holds column col0 + j of `in`; thread tx writes its element
        // row0 + tx, taken from column j of the tile.
#pragma unroll
        for (int j = ty; j < tile_dim; j += block_rows) {
            const int r = col0 + j;
            const int c = row0 + tx;
            if (r < cols && c < rows) out[static_cast<long long>(r) * rows + c] = tile[tx][j];
        }
    }
}
