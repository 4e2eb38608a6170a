// What a program sees: the kernel launched through its OptiML launcher in the two ways a program
// launches, timed with cudaEvents exactly as a program would, without any of OptiML's code:
//   warm: back to back, as a loop does (a launch, then rounds of N launches between two events,
//         the time per launch the median over rounds), its data left in L2 by the launch before;
//   cold: one launch at a time between two events, each after a kernel that reads a buffer of
//         twice the L2 size, so none of its data is in L2 (a read, not a memset: a memset would
//         leave dirty lines that the timed kernel pays to write back).
// Prints one JSON line; run it with OPTIML_FORCE_ORIGINAL=1 for the original kernel.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_CUDA(call)                                                                          \
    do {                                                                                          \
        const cudaError_t status_ = (call);                                                       \
        if (status_ != cudaSuccess) {                                                             \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(status_)); \
            std::exit(EXIT_FAILURE);                                                              \
        }                                                                                         \
    } while (0)

namespace l2_conditions {

__global__ void read_flush(const float4* buffer, unsigned long long count, float* sink) {
    float sum = 0.0f;
    for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
        const float4 v = buffer[i];
        sum += v.x + v.y + v.z + v.w;
    }
    if (sum == 12345.0f) *sink = sum;  // never true (the buffer is zero); keeps the reads
}

inline float median(std::vector<float> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// `launch(stream, M, N, K, A, B, C)` is the generated launcher; `dispatch(device)` its variant.
template <typename Launch, typename Dispatch>
int run(const char* name, int m, int n, int k, Launch launch, Dispatch dispatch) {
    int device = 0, l2 = 0, sms = 0;
    CHECK_CUDA(cudaGetDevice(&device));
    CHECK_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const auto variant = dispatch(device);

    const std::size_t a_count = std::size_t(m) * k, b_count = std::size_t(k) * n,
                      c_count = std::size_t(m) * n;
    std::vector<float> host(std::max(a_count, b_count));
    for (std::size_t i = 0; i < host.size(); ++i)
        host[i] = float(int(i * 7919 % 2001) - 1000) / 1000;
    float *a = nullptr, *b = nullptr, *c = nullptr, *sink = nullptr;
    float4* flush = nullptr;
    const std::size_t flush_bytes = 2 * std::size_t(l2);
    CHECK_CUDA(cudaMalloc(&a, a_count * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&b, b_count * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&c, c_count * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&sink, sizeof(float)));
    CHECK_CUDA(cudaMalloc(&flush, flush_bytes));
    CHECK_CUDA(cudaMemset(flush, 0, flush_bytes));
    CHECK_CUDA(cudaMemcpy(a, host.data(), a_count * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(b, host.data(), b_count * sizeof(float), cudaMemcpyHostToDevice));
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    CHECK_CUDA(cudaStreamCreate(&stream));
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));
    const auto elapsed = [&] {
        float ms = 0.0f;
        CHECK_CUDA(cudaEventSynchronize(stop));
        CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
        return ms;
    };

    // Warm-up, and a first estimate of one launch that sizes both loops.
    for (int i = 0; i < 3; ++i) CHECK_CUDA(launch(stream, m, n, k, a, b, c));
    CHECK_CUDA(cudaEventRecord(start, stream));
    CHECK_CUDA(launch(stream, m, n, k, a, b, c));
    CHECK_CUDA(cudaEventRecord(stop, stream));
    const float estimate = std::max(elapsed(), 0.001f);

    // Warm: rounds of back-to-back launches, each round about 20 ms.
    const int burst = std::clamp(int(std::ceil(20.0f / estimate)), 20, 2000);
    std::vector<float> warm;
    for (int round = 0; round < 9; ++round) {
        CHECK_CUDA(launch(stream, m, n, k, a, b, c));
        CHECK_CUDA(cudaStreamSynchronize(stream));
        CHECK_CUDA(cudaEventRecord(start, stream));
        for (int i = 0; i < burst; ++i) CHECK_CUDA(launch(stream, m, n, k, a, b, c));
        CHECK_CUDA(cudaEventRecord(stop, stream));
        warm.push_back(elapsed() / float(burst));
    }

    // Cold: each launch after the read flush, about 200 ms of launches.
    const int cold_runs = std::clamp(int(std::ceil(200.0f / estimate)), 20, 400);
    const unsigned long long vectors = flush_bytes / sizeof(float4);
    std::vector<float> cold;
    for (int i = 0; i < cold_runs; ++i) {
        read_flush<<<4 * sms, 512, 0, stream>>>(flush, vectors, sink);
        CHECK_CUDA(cudaGetLastError());
        CHECK_CUDA(cudaEventRecord(start, stream));
        CHECK_CUDA(launch(stream, m, n, k, a, b, c));
        CHECK_CUDA(cudaEventRecord(stop, stream));
        cold.push_back(elapsed());
    }

    std::printf(
        "{\"case\": \"%s\", \"variant\": %d, \"why\": \"%s\", \"warm_ms\": %.6f, "
        "\"warm_burst\": %d, \"cold_ms\": %.6f, \"cold_runs\": %d, \"l2_bytes\": %d, "
        "\"data_bytes\": %zu}\n",
        name, variant.variant, variant.why, median(warm), burst, median(cold), cold_runs, l2,
        (a_count + b_count + c_count) * sizeof(float));
    for (float* p : {a, b, c, sink}) CHECK_CUDA(cudaFree(p));
    CHECK_CUDA(cudaFree(flush));
    return 0;
}

}  // namespace l2_conditions
