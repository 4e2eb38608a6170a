// A 5-point 2-D stencil (one Jacobi step) as it is usually first written: one thread per point,
// every neighbour read from global memory, no shared memory; the border copied.
//
// Parameters (they only ever arrive as -D; the kernel reads blockDim):
//   block_size_x, block_size_y  threads a block
__global__ void stencil2d(const float* in, float* out, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    int i = y * width + x;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        out[i] = in[i];
    } else {
        out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
    }
}
