// Test fixture: a Kernel-Tuner-style tunable kernel (never compiled by the unit tests; the spec
// only needs the file to exist).
#include "saxpy_helpers.h"

#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef items_per_thread
#define items_per_thread 1
#endif

__constant__ float coefficients[16];

__global__ void saxpy(int n, float a, const float* x, float* y) {
    const int first = (blockIdx.x * block_size_x + threadIdx.x);
    for (int k = 0; k < items_per_thread; ++k) {
        const int i = first + k * block_size_x * gridDim.x;
        if (i < n) y[i] = axpy(a, x[i], y[i]);
    }
}
