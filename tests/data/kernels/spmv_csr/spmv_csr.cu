// y = A x for a sparse matrix A in CSR form (row pointers, column indices, values): the scalar
// CSR kernel, one thread per row. Its inputs have structure a random fill cannot give: row_ptr
// non-decreasing from 0 to the number of non-zeros, every column index in [0, cols). The spec
// fills them with the generator make_csr.cpp.
//
// Parameters:
//   block_size_x  threads a block (the grid covers the rows)
//   use_ldg       1: read the matrix and x through the read-only data cache (__ldg)
// Every configuration adds the same products in the same order, so all give the same bits.
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef use_ldg
#define use_ldg 0
#endif

__global__ void spmv_csr(int rows, int cols, const int* row_ptr, const int* col_idx,
                         const float* values, const float* x, float* y) {
    const int row = blockIdx.x * block_size_x + threadIdx.x;
    if (row >= rows) return;
    float sum = 0.0f;
#if use_ldg
    const int end = __ldg(&row_ptr[row + 1]);
    for (int k = __ldg(&row_ptr[row]); k < end; ++k)
        sum += __ldg(&values[k]) * __ldg(&x[__ldg(&col_idx[k])]);
#else
    const int end = row_ptr[row + 1];
    for (int k = row_ptr[row]; k < end; ++k) sum += values[k] * x[col_idx[k]];
#endif
    y[row] = sum;
}
