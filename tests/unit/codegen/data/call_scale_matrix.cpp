// A user's host-only C++ file calling both launch forms of a kernel with a launch argument (the
// height). Exit status 0 means every check held. Without a GPU both must report an error (not
// crash); with one, every form must compute the right result: the named launcher, the drop-in
// form with the original geometry (tuned on sm_90) and with another geometry (the original).
#include <cstdio>
#include <vector>

#include <optiml/scale_matrix.h>

namespace {

constexpr int kWidth = 1000;
constexpr int kHeight = 300;

int wrong_results(const float* device_out, const std::vector<float>& in) {
    std::vector<float> out(in.size());
    cudaMemcpy(out.data(), device_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (std::size_t i = 0; i < in.size(); ++i) wrong += out[i] != 2.0f * in[i];
    cudaMemset(const_cast<float*>(device_out), 0, out.size() * sizeof(float));
    return wrong;
}

}  // namespace

int main() {
    const dim3 grid((kWidth + 127) / 128, kHeight);  // the spec's geometry at its defaults
    const dim3 block(128);
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        const cudaError_t named = optiml::scale_matrix(nullptr, kWidth, nullptr, nullptr, kHeight);
        const cudaError_t dropin =
            optiml::scale_matrix_launch(grid, block, 0, nullptr, kWidth, nullptr, nullptr, kHeight);
        std::printf("no GPU: launcher returned %s, drop-in form %s\n", cudaGetErrorName(named),
                    cudaGetErrorName(dropin));
        return named != cudaSuccess && dropin != cudaSuccess ? 0 : 1;
    }

    std::vector<float> in(static_cast<std::size_t>(kWidth) * kHeight);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 977);
    float* device_in = nullptr;
    float* device_out = nullptr;
    if (cudaMalloc(&device_in, in.size() * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&device_out, in.size() * sizeof(float)) != cudaSuccess) {
        std::printf("cudaMalloc failed\n");
        return 1;
    }
    cudaMemcpy(device_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(device_out, 0, in.size() * sizeof(float));

    cudaError_t status = optiml::scale_matrix(nullptr, kWidth, device_in, device_out, kHeight);
    if (status == cudaSuccess) status = cudaDeviceSynchronize();
    const int named_wrong = wrong_results(device_out, in);
    status = status != cudaSuccess ? status
                                   : optiml::scale_matrix_launch(grid, block, 0, nullptr, kWidth,
                                                                 device_in, device_out, kHeight);
    if (status == cudaSuccess) status = cudaDeviceSynchronize();
    const int dropin_wrong = wrong_results(device_out, in);
    // Another geometry than the spec's: the original kernel runs it as <<<>>> would.
    const dim3 other_grid((kWidth + 127) / 128, kHeight / 2);
    status = status != cudaSuccess
                 ? status
                 : optiml::scale_matrix_launch(other_grid, block, 0, nullptr, kWidth, device_in,
                                               device_out, kHeight);
    if (status == cudaSuccess) status = cudaDeviceSynchronize();
    std::vector<float> half(in.begin(), in.begin() + in.size() / 2);
    std::vector<float> out(in.size());
    cudaMemcpy(out.data(), device_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost);
    int other_wrong = 0;
    for (std::size_t i = 0; i < in.size(); ++i)
        other_wrong += out[i] != (i < half.size() ? 2.0f * in[i] : 0.0f);
    std::printf("%s: named %d wrong, drop-in %d wrong, other geometry %d wrong\n",
                cudaGetErrorName(status), named_wrong, dropin_wrong, other_wrong);
    return status == cudaSuccess && named_wrong == 0 && dropin_wrong == 0 && other_wrong == 0 ? 0
                                                                                              : 1;
}
