// The reduction's generated launcher, as built from its tuned entry, run at each problem size:
// the kernel time through the launcher (the size picks the variant) against the original kernel
// launched with <<<>>>, and the host cost per launch of the launcher against a plain <<<>>> launch
// of the same kernel. Built by size_dispatch.py with the generated .cu included:
//   nvcc -std=c++17 -arch=sm_90 -I<runtime/include> -I<out>/include -I<out>
//        -DGENERATED='"optiml_reduction.cu"' launch_times.cu <libruntime> -o launch_times
//   launch_times <n>...
#include GENERATED

#include "../event_timing.cuh"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

constexpr int kSegment = 4096;

// The original kernel at the spec's defaults (block 256, a segment a block), launched directly.
void direct(cudaStream_t stream, int n, const float* x, float* partials) {
    const int blocks = (n + kSegment - 1) / kSegment;
    ::reduction<<<blocks, 256, 0, stream>>>(n, kSegment, x, partials);
}

double median_kernel_ms(cudaStream_t stream, const std::function<void()>& launch) {
    return bench::time_with_events(stream, launch, 5, 51).median_ms;
}

// Host time to enqueue a launch, in batches small enough that the queue never fills; the two
// paths alternate round by round; the median batch of each.
void enqueue_ns(cudaStream_t stream, const std::function<void()>& a, const std::function<void()>& b,
                double& a_ns, double& b_ns) {
    const int batch = 128, rounds = 1001;
    std::vector<double> as, bs;
    for (int round = 0; round < rounds; ++round) {
        for (int path = 0; path < 2; ++path) {
            CHECK(cudaStreamSynchronize(stream));
            const auto begin = std::chrono::steady_clock::now();
            for (int i = 0; i < batch; ++i) (path == 0 ? a : b)();
            const auto end = std::chrono::steady_clock::now();
            (path == 0 ? as : bs)
                .push_back(std::chrono::duration<double, std::nano>(end - begin).count() / batch);
        }
    }
    CHECK(cudaStreamSynchronize(stream));
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
    const int largest = *std::max_element(sizes.begin(), sizes.end());
    float *x = nullptr, *partials = nullptr;
    CHECK(cudaMalloc(&x, sizeof(float) * static_cast<std::size_t>(largest)));
    CHECK(cudaMalloc(&partials, sizeof(float) * static_cast<std::size_t>(largest / kSegment + 1)));
    CHECK(cudaMemset(x, 0, sizeof(float) * static_cast<std::size_t>(largest)));
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    std::printf(
        "| n | launcher ms | original <<<>>> ms | original / launcher | launcher ns | "
        "<<<>>> ns | overhead ns |\n|---|---|---|---|---|---|---|\n");
    for (const int n : sizes) {
        const auto launcher = [&] { CHECK(optiml::reduction(stream, n, kSegment, x, partials)); };
        const auto original = [&] { direct(stream, n, x, partials); };
        const double launcher_ms = median_kernel_ms(stream, launcher);
        const double original_ms = median_kernel_ms(stream, original);
        // 128 launches enqueue long before they run: the queue never fills, even at 2^26.
        double launcher_ns = 0, direct_ns = 0;
        enqueue_ns(stream, launcher, original, launcher_ns, direct_ns);
        std::printf("| %d | %.4f | %.4f | %.3f | %.1f | %.1f | %.1f |\n", n, launcher_ms,
                    original_ms, original_ms / launcher_ms, launcher_ns, direct_ns,
                    launcher_ns - direct_ns);
    }
    return 0;
}
