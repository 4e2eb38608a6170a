// The vendor library's time at each problem of the size bench, the issue's column (d): cuBLAS
// SGEMM for the matmul (M = N = K = s), CUB's device-wide sum for the reduction (n floats read
// once, as the reduction's kernel reads them). Built and run by size_dispatch.py:
//   nvcc -std=c++17 -O2 -arch=sm_90 vendor_times.cu -lcublas -o vendor_times
//   vendor_times matmul <s>...  |  vendor_times reduction <n>...
// Prints one "<size> <median ms>" line per problem (medians of 51 runs after 5 warm-ups).
#include <cublas_v2.h>
#include <cub/device/device_reduce.cuh>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../event_timing.cuh"

namespace {

double sgemm_ms(cublasHandle_t handle, cudaStream_t stream, int s) {
    const std::size_t count = static_cast<std::size_t>(s) * s;
    float *a = nullptr, *b = nullptr, *c = nullptr;
    CHECK(cudaMalloc(&a, count * sizeof(float)));
    CHECK(cudaMalloc(&b, count * sizeof(float)));
    CHECK(cudaMalloc(&c, count * sizeof(float)));
    CHECK(cudaMemset(a, 0, count * sizeof(float)));
    CHECK(cudaMemset(b, 0, count * sizeof(float)));
    const float one = 1.0f, zero = 0.0f;
    const double ms = bench::time_with_events(
                          stream,
                          [&] {
                              if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, s, s, s, &one, b, s,
                                              a, s, &zero, c, s) != CUBLAS_STATUS_SUCCESS) {
                                  std::fprintf(stderr, "cublasSgemm failed at %d\n", s);
                                  std::exit(1);
                              }
                          },
                          5, 51)
                          .median_ms;
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    return ms;
}

double sum_ms(cudaStream_t stream, int n) {
    float *x = nullptr, *total = nullptr;
    CHECK(cudaMalloc(&x, static_cast<std::size_t>(n) * sizeof(float)));
    CHECK(cudaMalloc(&total, sizeof(float)));
    CHECK(cudaMemset(x, 0, static_cast<std::size_t>(n) * sizeof(float)));
    std::size_t scratch_bytes = 0;
    CHECK(cub::DeviceReduce::Sum(nullptr, scratch_bytes, x, total, n, stream));
    void* scratch = nullptr;
    CHECK(cudaMalloc(&scratch, scratch_bytes));
    const double ms =
        bench::time_with_events(
            stream,
            [&] { CHECK(cub::DeviceReduce::Sum(scratch, scratch_bytes, x, total, n, stream)); }, 5,
            51)
            .median_ms;
    CHECK(cudaFree(scratch));
    CHECK(cudaFree(x));
    CHECK(cudaFree(total));
    return ms;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: vendor_times matmul|reduction <size>...\n");
        return 2;
    }
    const std::string kernel = argv[1];
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cublasHandle_t handle = nullptr;
    if (kernel == "matmul") {
        if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
        cublasSetStream(handle, stream);
    }
    for (int i = 2; i < argc; ++i) {
        const int size = std::atoi(argv[i]);
        const double ms =
            kernel == "matmul" ? sgemm_ms(handle, stream, size) : sum_ms(stream, size);
        std::printf("%d %.6g\n", size, ms);
    }
    if (handle) cublasDestroy(handle);
    return 0;
}
