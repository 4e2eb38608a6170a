// The users' original kernels, compiled by nvcc exactly as written (no parameter defines), each
// in its own namespace so they sit beside the generated launchers' copies. Host wrappers launch
// them at their default geometry: the "original" column of the benchmark.
#include "original_kernels.h"

namespace original_saxpy {
#include "saxpy/kernels/saxpy.cu"
}
#undef block_size_x
#undef items_per_thread

namespace original_matmul {
#include "matmul/kernels/matmul.cu"
}
#undef block_size_x
#undef block_size_y
#undef tile_size_x
#undef tile_size_y
#undef use_shared_mem
#undef tile_k

namespace original_tiny {
#include "../bench/kernels/tiny.cu"
}

namespace bench {

void original_saxpy_launch(cudaStream_t stream, int n, float a, const float* x, float* y) {
    const int block = 256;  // the kernel's defaults: block_size_x 256, items_per_thread 1
    original_saxpy::saxpy<<<(n + block - 1) / block, block, 0, stream>>>(n, a, x, y);
}

void original_matmul_launch(cudaStream_t stream, int m, int n, int k, const float* a,
                            const float* b, float* c) {
    const dim3 block(16, 16);  // defaults: 16x16 threads, one output each, no shared memory
    const dim3 grid((n + 15) / 16, (m + 15) / 16);
    original_matmul::matmul<<<grid, block, 0, stream>>>(m, n, k, a, b, c);
}

void original_tiny_launch(cudaStream_t stream, int n, float* x) {
    original_tiny::tiny<<<(n + 255) / 256, 256, 0, stream>>>(n, x);
}

}  // namespace bench
