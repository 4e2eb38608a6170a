// A normalization kernel as it often lives: one thread a row, in the program's own .cu file
// beside main() and its standard-library includes, so NVRTC cannot compile the file and OptiML's
// variants go through nvcc (bench/throughput/README.md). Tunables: rows a block, the unroll
// factor of the row loops, and how the inverse standard deviation is computed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <vector>

#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef unroll_factor
#define unroll_factor 1
#endif
#ifndef use_rsqrt
#define use_rsqrt 0
#endif

constexpr int kUnroll = unroll_factor;  // #pragma unroll takes a constant expression, no macro

__global__ void layer_norm(const float* in, float* out, int rows, int cols) {
    const int row = blockIdx.x * block_size_x + threadIdx.x;
    if (row >= rows) return;
    const float* x = in + static_cast<long>(row) * cols;
    float mean = 0.0f;
#pragma unroll kUnroll
    for (int c = 0; c < cols; ++c) mean += x[c];
    mean /= cols;
    float variance = 0.0f;
#pragma unroll kUnroll
    for (int c = 0; c < cols; ++c) variance += (x[c] - mean) * (x[c] - mean);
    variance /= cols;
#if use_rsqrt
    const float inverse = rsqrtf(variance + 1e-5f);
#else
    const float inverse = 1.0f / sqrtf(variance + 1e-5f);
#endif
    float* y = out + static_cast<long>(row) * cols;
#pragma unroll kUnroll
    for (int c = 0; c < cols; ++c) y[c] = (x[c] - mean) * inverse;
}

int main() {
    const int rows = 8192, cols = 768;
    std::vector<float> host(static_cast<std::size_t>(rows) * cols);
    std::mt19937 generator(1);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::generate(host.begin(), host.end(), [&] { return uniform(generator); });
    float *in = nullptr, *out = nullptr;
    cudaMalloc(&in, host.size() * sizeof(float));
    cudaMalloc(&out, host.size() * sizeof(float));
    cudaMemcpy(in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
    const auto start = std::chrono::steady_clock::now();
    layer_norm<<<(rows + block_size_x - 1) / block_size_x, block_size_x>>>(in, out, rows, cols);
    cudaDeviceSynchronize();
    std::cout << "layer_norm: "
              << std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count()
              << " ms\n";
    cudaFree(in);
    cudaFree(out);
    return 0;
}
