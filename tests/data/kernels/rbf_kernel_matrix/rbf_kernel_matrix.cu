// The Gaussian (RBF) kernel matrix of two point sets, K[i][j] = exp(-gamma * ||x_i - y_j||^2),
// written the naive way kernel-method codes write it: one thread per output element, a loop over
// the d dimensions accumulating the squared distance in a register, then expf. Points are stored
// row-major (point-major): x is n x d, y is m x d, K is n x m.
//
// Parameters (they only ever arrive as -D; the spec's defaults are the original kernel):
//   block_size_x, block_size_y  the thread block; thread (x, y) of the grid computes K[y][x]
// Every configuration adds the same terms in the same order (k = 0, 1, ..., d - 1), so all give
// the same bits.
#ifndef block_size_x
#define block_size_x 16
#endif
#ifndef block_size_y
#define block_size_y 16
#endif

__global__ void rbf_kernel_matrix(int n, int m, int d, float gamma, const float* x, const float* y,
                                  float* k) {
    int j = blockIdx.x * block_size_x + threadIdx.x;  // point of y, column of K
    int i = blockIdx.y * block_size_y + threadIdx.y;  // point of x, row of K
    if (i < n && j < m) {
        float dist_sqr = 0.0f;
        for (int c = 0; c < d; ++c) {
            float diff = x[i * d + c] - y[j * d + c];
            dist_sqr += diff * diff;
        }
        k[i * m + j] = expf(-gamma * dist_sqr);
    }
}
