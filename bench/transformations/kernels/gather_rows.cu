// An embedding lookup as it is often first written: one thread per looked-up row copies the
// table's row `index[r]` into row r of the output, element by element.
//
// Parameters (they only ever arrive as -D; the kernel reads blockDim.x):
//   block_size_x  threads a block
__global__ void gather_rows(const float* table, const int* index, float* out, int rows, int dim) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* from = table + (long)index[r] * dim;
    for (int d = 0; d < dim; ++d) out[(long)r * dim + d] = from[d];
}
