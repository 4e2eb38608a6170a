// A CUDA program whose launches `optiml capture` must record exactly (tests/gpu/capture_app.sh):
// scale_add 20 times with grid 3907, block 256, 64 bytes of dynamic shared memory, n = 1000000,
// a = 1.5, x of n floats (x[i] = (i % 97) * 0.25), y of n + 24 floats (y[i] = 1 + i % 13, the 24
// past n = -1); and one cold launch of touch. Without a usable GPU it says so and exits 2.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "scale_add.cu"

extern "C" __global__ void touch(int* flag) {
    *flag = 1;
}

namespace {

bool ok(cudaError_t result, const char* what) {
    if (result == cudaSuccess) return true;
    std::fprintf(stderr, "known_launch: %s: %s\n", what, cudaGetErrorString(result));
    return false;
}

}  // namespace

int main() {
    int devices = 0;
    const cudaError_t found = cudaGetDeviceCount(&devices);
    if (found != cudaSuccess || devices == 0) {
        std::fprintf(stderr, "known_launch: no usable CUDA device: %s\n",
                     found != cudaSuccess ? cudaGetErrorString(found) : "none found");
        return 2;
    }
    const int n = 1000000;  // not a multiple of 256: the grid is ceil_div(n, 256) = 3907
    const float a = 1.5f;
    std::vector<float> x(n), y(n + 24, -1.0f);
    for (int i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i % 97) * 0.25f;
        y[i] = 1.0f + static_cast<float>(i % 13);
    }
    float* dx = nullptr;
    float* dy = nullptr;
    int* flag = nullptr;
    if (!ok(cudaMalloc(&dx, x.size() * sizeof(float)), "cudaMalloc x") ||
        !ok(cudaMalloc(&dy, y.size() * sizeof(float)), "cudaMalloc y") ||
        !ok(cudaMalloc(&flag, sizeof(int)), "cudaMalloc flag") ||
        !ok(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice), "copy x") ||
        !ok(cudaMemcpy(dy, y.data(), y.size() * sizeof(float), cudaMemcpyHostToDevice), "copy y"))
        return 1;
    touch<<<1, 1>>>(flag);
    for (int i = 0; i < 20; ++i) scale_add<<<(n + 255) / 256, 256, 64>>>(n, a, dx, dy);
    // A second size, launched after the first: a problem of its own in the captured spec.
    for (int i = 0; i < 3; ++i) scale_add<<<(n / 2 + 255) / 256, 256, 64>>>(n / 2, a, dx, dy);
    if (!ok(cudaGetLastError(), "launch") || !ok(cudaDeviceSynchronize(), "run")) return 1;
    cudaFree(dx);
    cudaFree(dy);
    cudaFree(flag);
    std::printf("known_launch: 24 kernels ran\n");
    return 0;
}
