// Matrix multiplication C = A * B with shared-memory tiles, shaped like a classic CUDA sample:
// a template kernel whose template argument is the tile size, host code and main() in the same
// file, system headers and a helper header. main() times the kernel and checks the result.
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "check_cuda.h"
#include <optiml/MatrixMulCUDA.h>

// One BLOCK_SIZE x BLOCK_SIZE tile of C per thread block; wA is A's width, wB is B's.
template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float* C, float* A, float* B, int wA, int wB) {
    const int bx = blockIdx.x;
    const int by = blockIdx.y;
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;

    // The first and last tile of A this block reads, and the steps through A and B.
    const int aBegin = wA * BLOCK_SIZE * by;
    const int aEnd = aBegin + wA - 1;
    const int aStep = BLOCK_SIZE;
    const int bBegin = BLOCK_SIZE * bx;
    const int bStep = BLOCK_SIZE * wB;

    float sum = 0.0f;
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        __shared__ float tileA[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float tileB[BLOCK_SIZE][BLOCK_SIZE];
        tileA[ty][tx] = A[a + wA * ty + tx];
        tileB[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k) sum += tileA[ty][k] * tileB[k][tx];
        __syncthreads();
    }
    const int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    C[c + wB * ty + tx] = sum;
}

// Multiplies a hA x wA matrix by a wA x wB one `iterations` times and prints the time per run.
int MatrixMultiply(int block_size, const dim3& dimsA, const dim3& dimsB, int iterations) {
    const unsigned int size_A = dimsA.x * dimsA.y;
    const unsigned int size_B = dimsB.x * dimsB.y;
    const dim3 dimsC(dimsB.x, dimsA.y, 1);
    const unsigned int size_C = dimsC.x * dimsC.y;
    float* h_A = (float*)malloc(sizeof(float) * size_A);
    float* h_B = (float*)malloc(sizeof(float) * size_B);
    float* h_C = (float*)malloc(sizeof(float) * size_C);
    assert(h_A != NULL && h_B != NULL && h_C != NULL);
    const float valB = 0.01f;
    constant_init(h_A, size_A, 1.0f);
    constant_init(h_B, size_B, valB);

    float *d_A, *d_B, *d_C;
    checkCuda(cudaMalloc((void**)&d_A, sizeof(float) * size_A));
    checkCuda(cudaMalloc((void**)&d_B, sizeof(float) * size_B));
    checkCuda(cudaMalloc((void**)&d_C, sizeof(float) * size_C));
    cudaStream_t stream;
    checkCuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    checkCuda(cudaMemcpyAsync(d_A, h_A, sizeof(float) * size_A, cudaMemcpyHostToDevice, stream));
    checkCuda(cudaMemcpyAsync(d_B, h_B, sizeof(float) * size_B, cudaMemcpyHostToDevice, stream));

    const dim3 threads(block_size, block_size);
    const dim3 grid(dimsB.x / threads.x, dimsA.y / threads.y);

    // A warm-up run, then the timed ones.
    optiml::MatrixMulCUDA_launch(grid, threads, 0, stream, d_C, d_A, d_B, dimsA.x, dimsB.x, dimsA.y);
    checkCuda(cudaStreamSynchronize(stream));

    cudaEvent_t start, stop;
    checkCuda(cudaEventCreate(&start));
    checkCuda(cudaEventCreate(&stop));
    checkCuda(cudaEventRecord(start, stream));
    for (int j = 0; j < iterations; ++j) {
        optiml::MatrixMulCUDA_launch(grid, threads, 0, stream, d_C, d_A, d_B, dimsA.x, dimsB.x, dimsA.y);
    }
    checkCuda(cudaEventRecord(stop, stream));
    checkCuda(cudaEventSynchronize(stop));
    float total_ms = 0.0f;
    checkCuda(cudaEventElapsedTime(&total_ms, start, stop));
    const double ms = total_ms / iterations;
    const double flops = 2.0 * dimsA.x * dimsA.y * dimsB.x;
    printf("Performance= %.2f GFlop/s, Time= %.4f msec, Size= %.0f Ops, WorkgroupSize= %u threads/block\n",
           flops * 1.0e-9 / (ms / 1000.0), ms, flops, threads.x * threads.y);

    checkCuda(cudaMemcpyAsync(h_C, d_C, sizeof(float) * size_C, cudaMemcpyDeviceToHost, stream));
    checkCuda(cudaStreamSynchronize(stream));
    // Every element is a sum of wA products 1.0 * valB.
    bool correct = true;
    const double eps = 1.e-6;
    for (unsigned int i = 0; i < size_C; ++i) {
        const double abs_err = fabs(h_C[i] - (dimsA.x * valB));
        const double rel_err = abs_err / fabs(h_C[i]) / dimsA.x;
        if (rel_err > eps) {
            printf("Error! Matrix[%05u]=%.8f, ref=%.8f error term is > %E\n", i, h_C[i],
                   dimsA.x * valB, eps);
            correct = false;
            break;
        }
    }
    printf("%s\n", correct ? "Result = PASS" : "Result = FAIL");

    free(h_A);
    free(h_B);
    free(h_C);
    checkCuda(cudaFree(d_A));
    checkCuda(cudaFree(d_B));
    checkCuda(cudaFree(d_C));
    checkCuda(cudaEventDestroy(start));
    checkCuda(cudaEventDestroy(stop));
    checkCuda(cudaStreamDestroy(stream));
    return correct ? EXIT_SUCCESS : EXIT_FAILURE;
}

int main(int argc, char** argv) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("no CUDA device: nothing to run\n");
        return EXIT_SUCCESS;
    }
    const int block_size = 32;
    // 2048 x 2048 times 2048 x 2048, unless the command line says otherwise (-n=<size>).
    int n = 2048;
    for (int i = 1; i < argc; ++i)
        if (sscanf(argv[i], "-n=%d", &n) != 1) printf("ignored argument %s\n", argv[i]);
    const dim3 dimsA(n, n, 1);
    const dim3 dimsB(n, n, 1);
    printf("MatrixA(%d,%d), MatrixB(%d,%d)\n", dimsA.x, dimsA.y, dimsB.x, dimsB.y);
    return MatrixMultiply(block_size, dimsA, dimsB, 100);
}
