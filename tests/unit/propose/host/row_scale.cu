// A fixture of the host test (loop_rewrites_host_test.cpp): one thread a row divides the row by
// its norm, read from global memory at every step, and adds it into sums[row], read and
// written at every step: what hoist_invariant_loads and accumulate_in_register take.
__global__ void row_scale(int rows, int cols, const float* in, const float* norms, float* out,
                          float* sums) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        for (int j = 0; j < cols; ++j) {
            out[row * cols + j] = in[row * cols + j] / norms[row];
            sums[row] += out[row * cols + j];
        }
    }
}
