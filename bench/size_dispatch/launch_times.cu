// A kernel's generated launcher, as built from its tuned entry, run at each problem size: the
// kernel time through the launcher (the size picks the variant) against the original kernel
// launched with <<<>>>, and the host cost per launch of the launcher against a plain <<<>>> launch
// of the same kernel. The reduction by default, the matmul example with -DLAUNCH_TIMES_MATMUL
// (its sizes are M = N = K). Built by size_dispatch.py with the generated .cu included:
//   nvcc -std=c++17 -arch=sm_90 -I<runtime/include> -I<out>/include -I<out>
//        -DGENERATED='"optiml_reduction.cu"' launch_times.cu <libruntime> -o launch_times
//   launch_times <size>...
#include GENERATED

#include "../event_timing.cuh"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

#if defined(LAUNCH_TIMES_MATMUL)
// C = A B at M = N = K = size; the original at the spec's defaults (16 x 16 threads, one output
// each, A and B from global memory).
class Problem {
  public:
    explicit Problem(int size) : size_(size) {
        const std::size_t bytes = sizeof(float) * static_cast<std::size_t>(size) * size;
        for (float** matrix : {&a_, &b_, &c_}) {
            CHECK(cudaMalloc(matrix, bytes));
            CHECK(cudaMemset(*matrix, 0, bytes));
        }
    }
    ~Problem() {
        for (float* matrix : {a_, b_, c_}) cudaFree(matrix);
    }
    void launcher(cudaStream_t stream) const {
        CHECK(optiml::matmul(stream, size_, size_, size_, a_, b_, c_));
    }
    void original(cudaStream_t stream) const {
        const dim3 block(16, 16), grid((size_ + 15) / 16, (size_ + 15) / 16);
        ::matmul<<<grid, block, 0, stream>>>(size_, size_, size_, a_, b_, c_);
    }

  private:
    int size_;
    float *a_ = nullptr, *b_ = nullptr, *c_ = nullptr;
};
#else
constexpr int kSegment = 4096;

// Partial sums of n floats, a segment a block; the original at the spec's defaults (block 256).
class Problem {
  public:
    explicit Problem(int n) : n_(n) {
        CHECK(cudaMalloc(&x_, sizeof(float) * static_cast<std::size_t>(n)));
        CHECK(cudaMalloc(&partials_, sizeof(float) * static_cast<std::size_t>(n / kSegment + 1)));
        CHECK(cudaMemset(x_, 0, sizeof(float) * static_cast<std::size_t>(n)));
    }
    ~Problem() {
        cudaFree(x_);
        cudaFree(partials_);
    }
    void launcher(cudaStream_t stream) const {
        CHECK(optiml::reduction(stream, n_, kSegment, x_, partials_));
    }
    void original(cudaStream_t stream) const {
        const int blocks = (n_ + kSegment - 1) / kSegment;
        ::reduction<<<blocks, 256, 0, stream>>>(n_, kSegment, x_, partials_);
    }

  private:
    int n_;
    float *x_ = nullptr, *partials_ = nullptr;
};
#endif

double median_kernel_ms(cudaStream_t stream, const std::function<void()>& launch) {
    return bench::time_with_events(stream, launch, 5, 51).median_ms;
}

// Holds the stream until the host sets *release (or about a second has passed, so that a lost
// release cannot hang the benchmark): launches enqueued behind it wait without running.
__global__ void hold(const volatile int* release) {
    const long long start = clock64();
    while (*release == 0 && clock64() - start < (1LL << 31)) {
    }
}

// Host time to enqueue a launch: batches of 128 enqueued behind hold(), so that no kernel runs
// or completes while the host enqueues (a faster variant completing more kernels meanwhile would
// otherwise change the host's work); the two paths alternate round by round; the median batch
// of each.
void enqueue_ns(cudaStream_t stream, const std::function<void()>& a, const std::function<void()>& b,
                int rounds, double& a_ns, double& b_ns) {
    const int batch = 128;
    int* release = nullptr;
    int* release_on_device = nullptr;
    CHECK(cudaHostAlloc(&release, sizeof(int), cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer(&release_on_device, release, 0));
    std::vector<double> as, bs;
    for (int round = 0; round < rounds; ++round) {
        for (int path = 0; path < 2; ++path) {
            *reinterpret_cast<volatile int*>(release) = 0;
            hold<<<1, 1, 0, stream>>>(release_on_device);
            const auto begin = std::chrono::steady_clock::now();
            for (int i = 0; i < batch; ++i) (path == 0 ? a : b)();
            const auto end = std::chrono::steady_clock::now();
            *reinterpret_cast<volatile int*>(release) = 1;
            CHECK(cudaStreamSynchronize(stream));
            (path == 0 ? as : bs)
                .push_back(std::chrono::duration<double, std::nano>(end - begin).count() / batch);
        }
    }
    CHECK(cudaFreeHost(release));
    std::sort(as.begin(), as.end());
    std::sort(bs.begin(), bs.end());
    a_ns = as[rounds / 2];
    b_ns = bs[rounds / 2];
}
}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes;
    for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
    if (sizes.empty()) return 2;
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    std::printf(
        "| size | launcher ms | original <<<>>> ms | original / launcher | launcher ns | "
        "<<<>>> ns | overhead ns |\n|---|---|---|---|---|---|---|\n");
    for (const int size : sizes) {
        const Problem problem(size);
        const auto launcher = [&] { problem.launcher(stream); };
        const auto original = [&] { problem.original(stream); };
        const double launcher_ms = median_kernel_ms(stream, launcher);
        const double original_ms = median_kernel_ms(stream, original);
        // Each round runs 2 x 128 kernels: 1001 rounds where that takes at most 10 s, fewer
        // (at least 51) up to 1 ms a kernel, none beyond (the host cost does not depend on it).
        const double round_ms = 2 * 128 * std::max(launcher_ms, original_ms);
        const int rounds = std::min(1001, static_cast<int>(10000 / round_ms)) | 1;
        if (std::max(launcher_ms, original_ms) > 1.0 || rounds < 51) {
            std::printf("| %d | %.4f | %.4f | %.3f | - | - | - |\n", size, launcher_ms, original_ms,
                        original_ms / launcher_ms);
            continue;
        }
        // 128 launches wait behind hold(): the queue never fills at these sizes.
        double launcher_ns = 0, direct_ns = 0;
        enqueue_ns(stream, launcher, original, rounds, launcher_ns, direct_ns);
        std::printf("| %d | %.4f | %.4f | %.3f | %.1f | %.1f | %.1f |\n", size, launcher_ms,
                    original_ms, original_ms / launcher_ms, launcher_ns, direct_ns,
                    launcher_ns - direct_ns);
    }
    return 0;
}
