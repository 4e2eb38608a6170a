// A small CUDA program for the whole-program profile tests. Its three kernels spin for a fixed
// number of SM clock cycles, so their shares of GPU time are the same on any GPU: the templated
// app::stencil<4> 60%, reduce 30%, and extern "C" scale 10%. Hot set: stencil and reduce (90%).
// Without a usable GPU it says so and exits with status 2.
#include <cuda_runtime.h>

#include <cstdio>

namespace {

__device__ void spin(long long cycles, unsigned long long* sink) {
    const long long start = clock64();
    long long now = start;
    while (now - start < cycles) now = clock64();
    if (now == 0) *sink = static_cast<unsigned long long>(now);  // never true; keeps the loop
}

}  // namespace

namespace app {

template <int Radius>
__global__ void stencil(long long cycles, unsigned long long* sink) {
    spin(cycles * Radius / 4, sink);
}

}  // namespace app

__global__ void reduce(long long cycles, unsigned long long* sink) {
    spin(cycles, sink);
}

extern "C" __global__ void scale(long long cycles, unsigned long long* sink) {
    spin(cycles, sink);
}

int main() {
    int devices = 0;
    const cudaError_t found = cudaGetDeviceCount(&devices);
    if (found != cudaSuccess || devices == 0) {
        std::fprintf(stderr, "hot_and_cold: no usable CUDA device: %s\n",
                     found != cudaSuccess ? cudaGetErrorString(found) : "none found");
        return 2;
    }
    unsigned long long* sink = nullptr;
    if (cudaMalloc(&sink, sizeof(*sink)) != cudaSuccess) return 1;
    const long long unit = 1'000'000;  // SM cycles: about half a millisecond
    for (int i = 0; i < 3; ++i) app::stencil<4><<<1, 32>>>(2 * unit, sink);  // 6 units
    for (int i = 0; i < 3; ++i) reduce<<<2, 64>>>(unit, sink);               // 3 units
    scale<<<4, 128>>>(unit, sink);                                           // 1 unit
    const cudaError_t ran = cudaDeviceSynchronize();
    cudaFree(sink);
    if (ran != cudaSuccess || cudaGetLastError() != cudaSuccess) {
        std::fprintf(stderr, "hot_and_cold: %s\n", cudaGetErrorString(ran));
        return 1;
    }
    std::printf("hot_and_cold: 7 kernels ran\n");
    return 0;
}
