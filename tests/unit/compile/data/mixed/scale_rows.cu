// A kernel among host code, as CUDA samples are written: NVRTC cannot compile this file (system
// headers, main()), nvcc compiles its device code.
#include <cassert>
#include <cstdio>

#include "row_helpers.h"

template <int BLOCK>
__global__ void scale_rows(float* rows, int n) {
    const int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) rows[i] = scaled(rows[i]);
}

int main() {
    const int n = 1024;
    float* rows = nullptr;
    assert(cudaMalloc(&rows, n * sizeof(float)) == cudaSuccess);
    scale_rows<128><<<n / 128, 128>>>(rows, n);
    std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(rows);
    return 0;
}
