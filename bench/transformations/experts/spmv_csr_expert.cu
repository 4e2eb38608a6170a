// The expert's CSR matrix-vector product (written for this bench): `threads_per_row` lanes share
// a row (CSR-vector; about 16 nonzeros a row want a few lanes, not a warp), each lane every
// threads_per_row-th nonzero, the partial sums combined by shuffles within the group.
//
// Parameters: block_size_x (threads a block, a multiple of 32), threads_per_row (2 to 32).
#ifndef threads_per_row
#define threads_per_row 4
#endif

__global__ void spmv_csr_expert(int rows, int cols, const int* __restrict__ row_ptr,
                                const int* __restrict__ col_idx, const float* __restrict__ values,
                                const float* __restrict__ x, float* __restrict__ y) {
    const int thread = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = thread / threads_per_row;
    const int lane = thread % threads_per_row;
    // Rows past the end still take part in the shuffles; they add nothing and store nothing.
    float sum = 0.0f;
    if (row < rows) {
        const int end = __ldg(&row_ptr[row + 1]);
        for (int k = __ldg(&row_ptr[row]) + lane; k < end; k += threads_per_row)
            sum += __ldg(&values[k]) * __ldg(&x[__ldg(&col_idx[k])]);
    }
    for (int offset = threads_per_row / 2; offset > 0; offset /= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, offset, threads_per_row);
    if (row < rows && lane == 0) y[row] = sum;
}
