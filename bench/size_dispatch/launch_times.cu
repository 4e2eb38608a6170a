// A kernel's generated launcher, as built from its tuned entry, run at each problem size: the
// kernel time through the launcher (the size picks the variant) against the original kernel
// launched with <<<>>>, and the host cost per launch of the launcher against the original's
// <<<>>>, the original's cudaKernel_t through cudaLaunchKernel, and the launcher's own kernel
// launched directly (CapturedLaunch), which leaves the launcher's own path. The reduction by
// default, the matmul example with -DLAUNCH_TIMES_MATMUL (its sizes are M = N = K). Built by
// size_dispatch.py with the generated .cu included:
//   nvcc -std=c++17 -arch=sm_90 -I<runtime/include> -I<out>/include -I<out>
//        -DGENERATED='"optiml_reduction.cu"' launch_times.cu <libruntime> -lcuda -o launch_times
//   launch_times <size>...
#include GENERATED

#include "../event_timing.cuh"

#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

// A kernel's cudaKernel_t: how a generated launcher names the kernels it launches.
template <typename Kernel>
cudaKernel_t handle_of(Kernel* kernel) {
    cudaKernel_t handle = nullptr;
    CHECK(cudaGetKernel(&handle, reinterpret_cast<const void*>(kernel)));
    return handle;
}

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
        ::matmul<<<grid(), dim3(16, 16), 0, stream>>>(size_, size_, size_, a_, b_, c_);
    }
    // The same launch through cudaLaunchKernel and the kernel's cudaKernel_t.
    void by_handle(cudaStream_t stream) const {
        int m = size_, n = size_, k = size_;
        float *a = a_, *b = b_, *c = c_;
        void* arguments[] = {&m, &n, &k, &a, &b, &c};
        CHECK(cudaLaunchKernel(static_cast<const void*>(handle_), grid(), dim3(16, 16), arguments,
                               0, stream));
    }

  private:
    dim3 grid() const { return dim3((size_ + 15) / 16, (size_ + 15) / 16); }
    int size_;
    float *a_ = nullptr, *b_ = nullptr, *c_ = nullptr;
    cudaKernel_t handle_ = handle_of(::matmul);
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
        ::reduction<<<blocks(), 256, 0, stream>>>(n_, kSegment, x_, partials_);
    }
    // The same launch through cudaLaunchKernel and the kernel's cudaKernel_t.
    void by_handle(cudaStream_t stream) const {
        int n = n_, segment = kSegment;
        float *x = x_, *partials = partials_;
        void* arguments[] = {&n, &segment, &x, &partials};
        CHECK(cudaLaunchKernel(static_cast<const void*>(handle_), dim3(blocks()), dim3(256),
                               arguments, 0, stream));
    }

  private:
    int blocks() const { return (n_ + kSegment - 1) / kSegment; }
    int n_;
    float *x_ = nullptr, *partials_ = nullptr;
    cudaKernel_t handle_ = handle_of(::reduction);
};
#endif

// The launch a generated launcher makes, captured in a graph: the kernel it chose, its geometry
// and its arguments, to launch that same kernel directly, without the launcher's own path. The
// node is read through the driver API: the runtime's cudaGraphKernelNodeGetParams refuses a node
// of a library kernel (cudaErrorInvalidDeviceFunction); the driver's gives its CUkernel, which is
// the cudaKernel_t the launcher passed to cudaLaunchKernel.
class CapturedLaunch {
  public:
    CapturedLaunch(cudaStream_t stream, const std::function<void()>& launch) {
        CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        launch();
        CHECK(cudaStreamEndCapture(stream, &graph_));
        std::size_t count = 0;
        CHECK(cudaGraphGetNodes(graph_, nullptr, &count));
        std::vector<cudaGraphNode_t> nodes(count);
        CHECK(cudaGraphGetNodes(graph_, nodes.data(), &count));
        for (cudaGraphNode_t node : nodes) {
            cudaGraphNodeType type;
            CHECK(cudaGraphNodeGetType(node, &type));
            if (type != cudaGraphNodeTypeKernel) continue;
            if (cuGraphKernelNodeGetParams(node, &params_) != CUDA_SUCCESS) {
                std::fprintf(stderr, "cuGraphKernelNodeGetParams failed\n");
                std::exit(1);
            }
        }
        if (params_.kern == nullptr && params_.func == nullptr) {
            std::fprintf(stderr, "the launcher's launch captured no kernel\n");
            std::exit(1);
        }
        function_ = params_.func;
        if (params_.kern != nullptr &&
            cuKernelGetFunction(&function_, params_.kern) != CUDA_SUCCESS) {
            std::fprintf(stderr, "cuKernelGetFunction failed\n");
            std::exit(1);
        }
    }
    ~CapturedLaunch() { cudaGraphDestroy(graph_); }
    CapturedLaunch(const CapturedLaunch&) = delete;
    CapturedLaunch& operator=(const CapturedLaunch&) = delete;

    // The arguments are the graph's copies: valid while it lives.
    // A library kernel's node names its CUkernel (launched as the launcher does); a node that
    // names only a function is launched through the driver.
    void launch(cudaStream_t stream) const {
        if (params_.kern != nullptr) {
            CHECK(cudaLaunchKernel(static_cast<const void*>(params_.kern),
                                   dim3(params_.gridDimX, params_.gridDimY, params_.gridDimZ),
                                   dim3(params_.blockDimX, params_.blockDimY, params_.blockDimZ),
                                   params_.kernelParams, params_.sharedMemBytes, stream));
        } else if (cuLaunchKernel(params_.func, params_.gridDimX, params_.gridDimY,
                                  params_.gridDimZ, params_.blockDimX, params_.blockDimY,
                                  params_.blockDimZ, params_.sharedMemBytes, stream,
                                  params_.kernelParams, nullptr) != CUDA_SUCCESS) {
            std::fprintf(stderr, "cuLaunchKernel failed\n");
            std::exit(1);
        }
    }

    // The same kernel through the driver and its CUfunction in the current context, looked up
    // once: what a launcher that cached that function per device would pay.
    void launch_by_function(cudaStream_t stream) const {
        if (cuLaunchKernel(function_, params_.gridDimX, params_.gridDimY, params_.gridDimZ,
                           params_.blockDimX, params_.blockDimY, params_.blockDimZ,
                           params_.sharedMemBytes, stream, params_.kernelParams,
                           nullptr) != CUDA_SUCCESS) {
            std::fprintf(stderr, "cuLaunchKernel failed\n");
            std::exit(1);
        }
    }

  private:
    cudaGraph_t graph_ = nullptr;
    CUDA_KERNEL_NODE_PARAMS params_{};
    CUfunction function_ = nullptr;
};

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

// Host time to enqueue a launch of each path: batches of 128 enqueued behind hold(), so that no
// kernel runs or completes while the host enqueues (a faster variant completing more kernels
// meanwhile would otherwise change the host's work); the paths alternate round by round; the
// median batch of each, per launch.
std::vector<double> enqueue_ns(cudaStream_t stream, const std::vector<std::function<void()>>& paths,
                               int rounds) {
    const int batch = 128;
    int* release = nullptr;
    int* release_on_device = nullptr;
    CHECK(cudaHostAlloc(&release, sizeof(int), cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer(&release_on_device, release, 0));
    std::vector<std::vector<double>> times(paths.size());
    for (int round = 0; round < rounds; ++round) {
        for (std::size_t path = 0; path < paths.size(); ++path) {
            *reinterpret_cast<volatile int*>(release) = 0;
            hold<<<1, 1, 0, stream>>>(release_on_device);
            const auto begin = std::chrono::steady_clock::now();
            for (int i = 0; i < batch; ++i) paths[path]();
            const auto end = std::chrono::steady_clock::now();
            *reinterpret_cast<volatile int*>(release) = 1;
            CHECK(cudaStreamSynchronize(stream));
            times[path].push_back(std::chrono::duration<double, std::nano>(end - begin).count() /
                                  batch);
        }
    }
    CHECK(cudaFreeHost(release));
    std::vector<double> medians;
    for (std::vector<double>& each : times) {
        std::sort(each.begin(), each.end());
        medians.push_back(each[each.size() / 2]);
    }
    return medians;
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
        "<<<>>> ns | overhead ns | original by cudaKernel_t ns | launcher's kernel direct ns | "
        "launcher's own path ns | launcher's kernel by CUfunction ns | "
        "direct after cudaGetDevice ns |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const int size : sizes) {
        const Problem problem(size);
        const auto launcher = [&] { problem.launcher(stream); };
        const auto original = [&] { problem.original(stream); };
        const auto by_handle = [&] { problem.by_handle(stream); };
        const double launcher_ms = median_kernel_ms(stream, launcher);
        const double original_ms = median_kernel_ms(stream, original);
        // Each round runs 5 x 128 kernels: 1001 rounds where that takes at most 10 s, fewer
        // (at least 51) up to 1 ms a kernel, none beyond (the host cost does not depend on it).
        const double round_ms = 5 * 128 * std::max(launcher_ms, original_ms);
        const int rounds = std::min(1001, static_cast<int>(10000 / round_ms)) | 1;
        if (std::max(launcher_ms, original_ms) > 1.0 || rounds < 51) {
            std::printf("| %d | %.4f | %.4f | %.3f | - | - | - | - | - | - | - | - |\n", size,
                        launcher_ms, original_ms, original_ms / launcher_ms);
            continue;
        }
        // After the launcher has run (its first call loads its images, outside any capture).
        const CapturedLaunch captured(stream, launcher);
        const auto direct = [&] { captured.launch(stream); };
        const auto by_function = [&] { captured.launch_by_function(stream); };
        // What the launcher's path paid to ask for the current device, before current_device()
        // skipped that call where the process sees one device.
        const auto after_get_device = [&] {
            int device = 0;
            CHECK(cudaGetDevice(&device));
            captured.launch(stream);
        };
        // 128 launches wait behind hold(): the queue never fills at these sizes.
        const std::vector<double> ns = enqueue_ns(
            stream, {launcher, original, by_handle, direct, by_function, after_get_device}, rounds);
        std::printf(
            "| %d | %.4f | %.4f | %.3f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n",
            size, launcher_ms, original_ms, original_ms / launcher_ms, ns[0], ns[1], ns[0] - ns[1],
            ns[2], ns[3], ns[0] - ns[3], ns[4], ns[5]);
    }
    return 0;
}
