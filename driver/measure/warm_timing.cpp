#include "driver/measure/detail/warm_timing.h"

namespace optiml::measure {
namespace {

// Two events per kernel, destroyed with the call.
struct Events {
    std::vector<CUevent> start, stop;
    ~Events() {
        for (CUevent event : start) cuEventDestroy(event);
        for (CUevent event : stop) cuEventDestroy(event);
    }
    CUresult create(std::size_t count) {
        for (std::size_t k = 0; k < count; ++k) {
            CUevent a = nullptr, b = nullptr;
            CUresult r = cuEventCreate(&a, CU_EVENT_DEFAULT);
            if (r == CUDA_SUCCESS) start.push_back(a);
            if (r == CUDA_SUCCESS) r = cuEventCreate(&b, CU_EVENT_DEFAULT);
            if (r == CUDA_SUCCESS) stop.push_back(b);
            if (r != CUDA_SUCCESS) return r;
        }
        return CUDA_SUCCESS;
    }
};

}  // namespace

CUresult time_warm(CUstream stream, std::size_t kernels,
                   const std::function<CUresult(std::size_t)>& launch, const WarmPlan& plan,
                   std::vector<std::vector<double>>& per_launch_ms) {
    per_launch_ms.assign(kernels, {});
    Events events;
    if (CUresult r = events.create(kernels); r != CUDA_SUCCESS) return r;
    for (int round = 0; round < plan.max_rounds; ++round) {
        // The whole round is enqueued before waiting: one kernel's burst follows the other's
        // with no idle GPU between them, as launches in a program's loop do.
        for (std::size_t i = 0; i < kernels; ++i) {
            const std::size_t k = round % 2 ? kernels - 1 - i : i;
            // The untimed launch loads the kernel's data into L2 and keeps the GPU busy while
            // the start event and the burst are enqueued: the burst measures launches that
            // follow launches, not the host's first enqueue.
            CUresult r = launch(k);
            if (r == CUDA_SUCCESS) r = cuEventRecord(events.start[k], stream);
            for (int n = 0; r == CUDA_SUCCESS && n < plan.burst; ++n) r = launch(k);
            if (r == CUDA_SUCCESS) r = cuEventRecord(events.stop[k], stream);
            if (r != CUDA_SUCCESS) return r;
        }
        if (CUresult r = cuStreamSynchronize(stream); r != CUDA_SUCCESS) return r;
        for (std::size_t k = 0; k < kernels; ++k) {
            float ms = 0.0f;
            if (CUresult r = cuEventElapsedTime(&ms, events.start[k], events.stop[k]);
                r != CUDA_SUCCESS)
                return r;
            per_launch_ms[k].push_back(static_cast<double>(ms) / plan.burst);
        }
        if (warm_settled(per_launch_ms, plan)) break;
    }
    return CUDA_SUCCESS;
}

}  // namespace optiml::measure
