// Each element of a width x width matrix gets TILE, written through a TILE x TILE shared tile: a
// template kernel whose template argument must be its block's size, as in CUDA's matrixMul sample.
// Run on another block, it leaves holes and writes the wrong value.
template <int TILE>
__global__ void tile_fill(int* out, int width) {
    __shared__ int tile[TILE][TILE];
    tile[threadIdx.y][threadIdx.x] = TILE;
    __syncthreads();
    const int x = blockIdx.x * TILE + threadIdx.x;
    const int y = blockIdx.y * TILE + threadIdx.y;
    if (x < width && y < width) out[y * width + x] = tile[threadIdx.y][threadIdx.x];
}
