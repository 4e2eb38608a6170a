// A fixture of the host test (warp_rewrites_host_test.cpp): a 3 x 3 blur of the inside of an
// image, one thread a pixel, as a stencil is often written: the weights set before the bound,
// the whole body inside it, each neighbour spelled with its own offsets (a corner first, so the
// tile's reach is not centred on the first read), the border left alone. What stage_halo takes.
__global__ void blur3x3(int rows, int cols, const float* in, float* out) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    float corner, side;
    corner = 0.0625f;
    side = 0.125f;
    if (row > 0 && row < rows - 1 && col > 0 && col < cols - 1) {
        float sum = corner * in[(row - 1) * cols + (col - 1)];
        sum += side * in[(row - 1) * cols + col] + corner * in[(row - 1) * cols + col + 1];
        sum += side * in[row * cols + col - 1] + 0.25f * in[row * cols + col] +
               side * in[row * cols + (col + 1)];
        sum += corner * in[(row + 1) * cols + col - 1] + side * in[(1 + row) * cols + col] +
               corner * in[cols * (row + 1) + col + 1];
        out[row * cols + col] = sum;
    }
}
