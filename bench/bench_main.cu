// OptiML benchmark: every ratio measured side by side in this one run, on this GPU.
//   saxpy:  tuned launcher vs original kernel vs device-to-device copy (the bandwidth roof)
//   matmul: tuned launcher vs original kernel vs cuBLAS SGEMM vs the fp32 FMA roof
//   launch: generated launcher vs a direct <<<>>> launch of the same tiny kernel
// Times are medians of repeated runs with the L2 flushed before each (except the launch test,
// which measures launch cost on purpose). Prints one table; exits non-zero on a CUDA error or a
// wrong result.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>

#include <optiml/matmul.h>
#include <optiml/saxpy.h>
#include <optiml/tiny.h>

#include "event_timing.cuh"
#include "original_kernels.h"

namespace {

using bench::Timing;

// Median of `runs` launches of `work`, each after overwriting a buffer twice the L2 size.
Timing time_kernel(cudaStream_t stream, const std::function<void()>& work, int runs = 50) {
    static void* flush = nullptr;
    static size_t flush_bytes = 0;
    if (!flush) {
        int device = 0, l2 = 0;
        CHECK(cudaGetDevice(&device));
        CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
        flush_bytes = 2 * static_cast<size_t>(l2);
        CHECK(cudaMalloc(&flush, flush_bytes));
    }
    return bench::time_with_events(stream, work, 3, runs, [&](int i) {
        CHECK(cudaMemsetAsync(flush, i, flush_bytes, stream));
    });
}

void fill_random(float* device, size_t count, unsigned seed) {
    std::vector<float> host(count);
    std::mt19937 engine(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (auto& v : host) v = dist(engine);
    CHECK(cudaMemcpy(device, host.data(), count * sizeof(float), cudaMemcpyHostToDevice));
}

const char* describe(const optiml::rt::Dispatch& d) {
    return d.variant < 0 ? "original" : "tuned";
}

void row(const char* what, Timing t, double reference_ms, const char* note) {
    std::printf("| %-34s | %10.4f | %8.4f-%-8.4f | %7.3fx | %s\n", what, t.median_ms, t.min_ms,
                t.max_ms, reference_ms / t.median_ms, note);
}

void bench_saxpy(cudaStream_t stream, int device) {
    const int n = 1 << 25;  // the spec's problem size
    const float a = 2.5f;
    float *x, *y, *copy;
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMalloc(&y, n * sizeof(float)));
    CHECK(cudaMalloc(&copy, n * sizeof(float)));
    fill_random(x, n, 1);
    fill_random(y, n, 2);

    const Timing original =
        time_kernel(stream, [&] { bench::original_saxpy_launch(stream, n, a, x, y); });
    const Timing tuned = time_kernel(stream, [&] { CHECK(optiml::saxpy(stream, n, a, x, y)); });
    const Timing memcpy_time = time_kernel(stream, [&] {
        CHECK(cudaMemcpyAsync(copy, x, n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
    });
    const double saxpy_bytes = 3.0 * n * sizeof(float);  // read x, read y, write y
    const double copy_bytes = 2.0 * n * sizeof(float);
    const double copy_bw = copy_bytes / memcpy_time.median_ms / 1e6;  // GB/s
    const double tuned_bw = saxpy_bytes / tuned.median_ms / 1e6;
    const double original_bw = saxpy_bytes / original.median_ms / 1e6;

    std::printf("\n## saxpy (n = %d, fp32, %s variant on device %d)\n\n", n,
                describe(optiml::saxpy_dispatch(device)), device);
    std::printf("| %-34s | %10s | %17s | %8s | %s\n", "version", "median ms", "min-max ms",
                "vs orig", "bandwidth");
    std::printf("|---|---|---|---|---|\n");
    char note[128];
    std::snprintf(note, sizeof(note), "%.0f GB/s (%.1f%% of copy)", original_bw,
                  100 * original_bw / copy_bw);
    row("original kernel (defaults)", original, original.median_ms, note);
    std::snprintf(note, sizeof(note), "%.0f GB/s (%.1f%% of copy)", tuned_bw,
                  100 * tuned_bw / copy_bw);
    row("OptiML tuned launcher", tuned, original.median_ms, note);
    std::snprintf(note, sizeof(note), "%.0f GB/s (roof: read+write bytes)", copy_bw);
    row("device-to-device copy (roof)", memcpy_time, original.median_ms, note);
    std::printf("\nSAXPY_TUNED_PERCENT_OF_COPY %.1f\n", 100 * tuned_bw / copy_bw);
    cudaFree(x);
    cudaFree(y);
    cudaFree(copy);
}

bool matmul_matches(const float* c_device, const float* reference_device, size_t count) {
    std::vector<float> c(count), r(count);
    CHECK(cudaMemcpy(c.data(), c_device, count * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(r.data(), reference_device, count * sizeof(float), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < count; ++i)
        if (!(std::abs(c[i] - r[i]) <= 1e-3f + 1e-3f * std::abs(r[i]))) {
            std::fprintf(stderr, "matmul: C[%zu] = %g, cuBLAS %g\n", i, c[i], r[i]);
            return false;
        }
    return true;
}

void bench_matmul(cudaStream_t stream, int device) {
    const int m = 4096, n = 4096, k = 4096;  // the spec's problem size
    float *a, *b, *c, *reference;
    CHECK(cudaMalloc(&a, size_t(m) * k * sizeof(float)));
    CHECK(cudaMalloc(&b, size_t(k) * n * sizeof(float)));
    CHECK(cudaMalloc(&c, size_t(m) * n * sizeof(float)));
    CHECK(cudaMalloc(&reference, size_t(m) * n * sizeof(float)));
    fill_random(a, size_t(m) * k, 1);
    fill_random(b, size_t(k) * n, 2);

    cublasHandle_t handle;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) std::exit(1);
    cublasSetStream(handle, stream);
    cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH);  // true fp32, no TF32: the same arithmetic
    const float one = 1.0f, zero = 0.0f;
    // Row-major C = A*B is column-major C^T = B^T * A^T.
    auto sgemm = [&] {
        cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, reference,
                    n);
    };
    const Timing cublas = time_kernel(stream, sgemm, 20);
    const Timing original = time_kernel(
        stream, [&] { bench::original_matmul_launch(stream, m, n, k, a, b, c); }, 10);
    if (!matmul_matches(c, reference, size_t(m) * n)) std::exit(1);
    const Timing tuned = time_kernel(
        stream, [&] { CHECK(optiml::matmul(stream, m, n, k, a, b, c)); }, 20);
    if (!matmul_matches(c, reference, size_t(m) * n)) std::exit(1);

    int sms = 0, clock_khz = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
    // fp32 FMA roof: 128 FP32 lanes per SM on Hopper, 2 flops per FMA, at the boost clock.
    const double roof_tflops = sms * 128.0 * 2.0 * clock_khz * 1e3 / 1e12;
    const double flops = 2.0 * m * n * k;
    auto tflops = [&](Timing t) { return flops / t.median_ms / 1e9; };

    std::printf("\n## matmul (%d x %d x %d, fp32, %s variant on device %d)\n\n", m, n, k,
                describe(optiml::matmul_dispatch(device)), device);
    std::printf("| %-34s | %10s | %17s | %8s | %s\n", "version", "median ms", "min-max ms",
                "vs orig", "throughput");
    std::printf("|---|---|---|---|---|\n");
    char note[128];
    std::snprintf(note, sizeof(note), "%.2f TFLOP/s", tflops(original));
    row("original kernel (naive, defaults)", original, original.median_ms, note);
    std::snprintf(note, sizeof(note), "%.2f TFLOP/s (%.0f%% of cuBLAS)", tflops(tuned),
                  100 * tflops(tuned) / tflops(cublas));
    row("OptiML tuned launcher", tuned, original.median_ms, note);
    std::snprintf(note, sizeof(note), "%.2f TFLOP/s (fp32, no TF32)", tflops(cublas));
    row("cuBLAS SGEMM (vendor)", cublas, original.median_ms, note);
    std::printf("| %-34s | %10.4f | %17s | %7.3fx | %.1f TFLOP/s fp32 FMA peak\n",
                "roofline (compute bound)", flops / (roof_tflops * 1e9), "-",
                original.median_ms / (flops / (roof_tflops * 1e9)), roof_tflops);
    std::printf("\nMATMUL_TUNED_SPEEDUP %.2f\n", original.median_ms / tuned.median_ms);
    cublasDestroy(handle);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    cudaFree(reference);
}

// Host-side cost per launch: the time to enqueue a batch of launches of a kernel that does
// almost nothing, in batches small enough that the launch queue never fills (a full queue would
// measure the GPU's launch throughput instead). Rounds alternate between the two paths; the
// median batch of each is reported.
void bench_launch_overhead(cudaStream_t stream, int device) {
    const int n = 256, batch = 128, rounds = 2001;
    float* x;
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMemset(x, 0, n * sizeof(float)));
    auto enqueue_ns = [&](const std::function<void()>& launch) {
        CHECK(cudaStreamSynchronize(stream));
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < batch; ++i) launch();
        const auto end = std::chrono::steady_clock::now();
        return std::chrono::duration<double, std::nano>(end - start).count() / batch;
    };
    const auto direct_launch = [&] { bench::original_tiny_launch(stream, n, x); };
    const auto optiml_launch = [&] { optiml::tiny(stream, n, x); };
    std::vector<double> direct, launcher;
    for (int round = 0; round < rounds; ++round) {
        direct.push_back(enqueue_ns(direct_launch));
        launcher.push_back(enqueue_ns(optiml_launch));
    }
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaGetLastError());
    std::sort(direct.begin(), direct.end());
    std::sort(launcher.begin(), launcher.end());
    const double d = direct[rounds / 2], l = launcher[rounds / 2];
    std::printf(
        "\n## launch overhead (%d batches of %d launches, %d-element kernel, %s variant)\n\n",
        rounds, batch, n, describe(optiml::tiny_dispatch(device)));
    std::printf("| %-34s | %12s | %12s |\n|---|---|---|\n", "launch path", "ns / launch",
                "p10-p90 ns");
    std::printf("| %-34s | %12.1f | %5.1f-%-6.1f |\n", "direct <<<>>> launch", d,
                direct[rounds / 10], direct[rounds * 9 / 10]);
    std::printf("| %-34s | %12.1f | %5.1f-%-6.1f |\n", "OptiML generated launcher", l,
                launcher[rounds / 10], launcher[rounds * 9 / 10]);
    std::printf("\nLAUNCHER_OVERHEAD_NS %.1f (ratio %.3f)\n", l - d, l / d);
    cudaFree(x);
}

}  // namespace

int main() {
    int device = 0;
    CHECK(cudaGetDevice(&device));
    cudaDeviceProp properties{};
    CHECK(cudaGetDeviceProperties(&properties, device));
    int driver = 0;
    CHECK(cudaDriverGetVersion(&driver));
    std::printf("# OptiML benchmark on %s (sm_%d%d, %d SMs, driver %d)\n", properties.name,
                properties.major, properties.minor, properties.multiProcessorCount, driver);
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    bench_saxpy(stream, device);
    bench_matmul(stream, device);
    bench_launch_overhead(stream, device);
    CHECK(cudaStreamDestroy(stream));
    return 0;
}
