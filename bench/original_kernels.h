#pragma once
#include <cuda_runtime.h>

namespace bench {
void original_saxpy_launch(cudaStream_t stream, int n, float a, const float* x, float* y);
void original_matmul_launch(cudaStream_t stream, int m, int n, int k, const float* a,
                            const float* b, float* c);
void original_tiny_launch(cudaStream_t stream, int n, float* x);
}  // namespace bench
