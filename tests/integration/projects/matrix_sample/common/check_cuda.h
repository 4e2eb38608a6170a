// Helpers of the matrix sample: error checking and host-side matrix set-up, as sample projects
// keep them in a shared header.
#ifndef MATRIX_SAMPLE_CHECK_CUDA_H
#define MATRIX_SAMPLE_CHECK_CUDA_H

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#define checkCuda(call) check_cuda_result((call), #call, __FILE__, __LINE__)

inline void check_cuda_result(cudaError_t result, const char* call, const char* file, int line) {
    if (result != cudaSuccess) {
        fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, call, cudaGetErrorString(result));
        exit(EXIT_FAILURE);
    }
}

// Every element of `data` set to `value`.
inline void constant_init(float* data, int size, float value) {
    for (int i = 0; i < size; ++i) data[i] = value;
}

#endif
