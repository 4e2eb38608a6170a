// out[r][c] = in[r][c] * row_scale[r % 64] * Factor, staged through dynamic shared memory: a
// templated kernel (found by its name expression), a 2D geometry, a __constant__ symbol, and
// (through reserve_kib) more dynamic shared memory than the 48 KiB a launch gets by default.
#include "scale_rows.cuh"

template <typename T, int Factor>
__global__ void scale_rows(int rows, int cols, const T* in, T* out) {
    extern __shared__ unsigned char staging_bytes[];
    T* staging = reinterpret_cast<T*>(staging_bytes);
    const int c = blockIdx.x * block_size_x + threadIdx.x;
    const int r = blockIdx.y * block_size_y + threadIdx.y;
    const int slot = threadIdx.y * block_size_x + threadIdx.x;
    if (r < rows && c < cols) staging[slot] = in[r * cols + c];
    __syncthreads();
    if (r < rows && c < cols) out[r * cols + c] = staging[slot] * row_scale[r % 64] * T(Factor);
}
