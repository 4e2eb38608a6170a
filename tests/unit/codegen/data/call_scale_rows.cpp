// Calls the templated launcher: a __constant__ symbol set through the generated setter and more
// than 48 KiB of dynamic shared memory. Exit status 0 means every check held; the test runs it
// once normally and once with OPTIML_FORCE_ORIGINAL=1, so both the tuned (library) path and the
// original kernel's path are exercised on a GPU.
#include <cstdio>
#include <vector>

#include <optiml/scale_rows.h>

int main() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        const float scale[64] = {};
        const cudaError_t set = optiml::scale_rows_set_row_scale(scale, 64, nullptr);
        const cudaError_t launch = optiml::scale_rows(nullptr, 16, 16, nullptr, nullptr);
        std::printf("no GPU: setter returned %s, launcher returned %s\n", cudaGetErrorName(set),
                    cudaGetErrorName(launch));
        return set != cudaSuccess && launch != cudaSuccess ? 0 : 1;
    }

    const int rows = 300;
    const int cols = 1000;
    std::vector<float> in(rows * cols), scale(64);
    for (int i = 0; i < rows * cols; ++i) in[i] = static_cast<float>(i % 17);
    for (int r = 0; r < 64; ++r) scale[r] = 0.5f * static_cast<float>(r);
    float* device_in = nullptr;
    float* device_out = nullptr;
    cudaMalloc(&device_in, in.size() * sizeof(float));
    cudaMalloc(&device_out, in.size() * sizeof(float));
    cudaMemcpy(device_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice);

    const cudaError_t too_many = optiml::scale_rows_set_row_scale(scale.data(), 65, nullptr);
    cudaGetLastError();  // clear what the rejected copy may have left
    cudaError_t status = optiml::scale_rows_set_row_scale(scale.data(), 64, nullptr);
    if (status == cudaSuccess)
        status = optiml::scale_rows(nullptr, rows, cols, device_in, device_out);
    if (status == cudaSuccess) status = cudaDeviceSynchronize();
    std::vector<float> out(in.size());
    cudaMemcpy(out.data(), device_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            wrong += out[r * cols + c] != in[r * cols + c] * scale[r % 64] * 3.0f;
        }
    }
    const optiml::rt::Dispatch dispatch = optiml::scale_rows_dispatch(0);
    std::printf("launch %s, %d wrong, 65 constants give %s; dispatch image %d variant %d (%s)\n",
                cudaGetErrorName(status), wrong, cudaGetErrorName(too_many), dispatch.image,
                dispatch.variant, dispatch.why);
    return status == cudaSuccess && wrong == 0 && too_many != cudaSuccess ? 0 : 1;
}
