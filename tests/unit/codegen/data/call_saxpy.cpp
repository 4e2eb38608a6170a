// A user's host-only C++ file calling a generated launcher. Exit status 0 means every check held.
// Without a GPU the launcher must report an error (not crash); with one, the results must be right
// and an sm_90 device must run the tuned variant (the test embeds a real sm_90 CUBIN).
#include <cmath>
#include <cstdio>
#include <vector>

#include <optiml/saxpy.h>

int main() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        const cudaError_t status = optiml::saxpy(nullptr, 1000, 2.0f, nullptr, nullptr);
        const optiml::rt::Dispatch dispatch = optiml::saxpy_dispatch(0);
        std::printf("no GPU: launcher returned %s; dispatch image %d (%s)\n",
                    cudaGetErrorName(status), dispatch.image, dispatch.why);
        return status != cudaSuccess && dispatch.image == -1 ? 0 : 1;
    }

    const int n = 1 << 20;
    const float a = 3.0f;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i % 1000);
        y[i] = static_cast<float>(i % 7);
    }
    float* device_x = nullptr;
    float* device_y = nullptr;
    if (cudaMalloc(&device_x, n * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&device_y, n * sizeof(float)) != cudaSuccess) {
        std::printf("cudaMalloc failed\n");
        return 1;
    }
    cudaMemcpy(device_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(device_y, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaError_t status = optiml::saxpy(nullptr, n, a, device_x, device_y);
    if (status == cudaSuccess) status = cudaDeviceSynchronize();
    std::vector<float> result(n);
    cudaMemcpy(result.data(), device_y, n * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += result[i] != a * x[i] + y[i];

    // A bad geometry is an error, not a crash: n = 0 makes a grid of 0 blocks.
    const cudaError_t empty = optiml::saxpy(nullptr, 0, a, device_x, device_y);

    int major = 0;
    int minor = 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
    const optiml::rt::Dispatch dispatch = optiml::saxpy_dispatch(0);
    std::printf("sm_%d%d: launch %s, %d wrong, n=0 gives %s; dispatch image %d variant %d (%s)\n",
                major, minor, cudaGetErrorName(status), wrong, cudaGetErrorName(empty),
                dispatch.image, dispatch.variant, dispatch.why);
    const bool tuned_as_expected = major * 10 + minor != 90 || dispatch.variant == 0;
    return status == cudaSuccess && wrong == 0 && empty == cudaErrorInvalidConfiguration &&
                   tuned_as_expected
               ? 0
               : 1;
}
