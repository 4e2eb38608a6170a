// A normalization written one thread per row, as it is often first written: three passes over
// the row (mean, variance, normalize and scale). Each thread walks its own row, so a warp's loads
// touch 32 rows 3 KiB apart. The GPU test gpu.cooperative_rows tunes it with the transformation
// tree: the rewrite warp_per_row must verify against it.
//
// Parameters (they only ever arrive as -D; the kernel reads blockDim.x):
//   block_size_x  threads a block
__global__ void row_norm(const float* x, const float* gamma, const float* beta, float* y, int rows,
                         int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const float* in = x + (long)row * cols;
    float* out = y + (long)row * cols;
    float mean = 0.0f;
    for (int j = 0; j < cols; ++j) mean += in[j];
    mean /= cols;
    float variance = 0.0f;
    for (int j = 0; j < cols; ++j) {
        const float d = in[j] - mean;
        variance += d * d;
    }
    const float scale = rsqrtf(variance / cols + 1e-5f);
    for (int j = 0; j < cols; ++j) out[j] = (in[j] - mean) * scale * gamma[j] + beta[j];
}
