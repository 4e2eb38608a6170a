// CUDA event timing shared by the benchmarks' programs (bench_main.cu, size_dispatch's
// launch_times.cu): one way to check a call and to take the median of timed launches.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CHECK(call)                                                            \
    do {                                                                       \
        const cudaError_t status_ = (call);                                    \
        if (status_ != cudaSuccess) {                                          \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                         cudaGetErrorString(status_));                         \
            std::exit(1);                                                      \
        }                                                                      \
    } while (0)

namespace bench {

struct Timing {
    double median_ms;
    double min_ms;
    double max_ms;
};

// `work` run `warmups` times, then `runs` times between two events, each run after
// `before_each(run)` (enqueued outside the timed span: an L2 flush, or nothing).
inline Timing time_with_events(cudaStream_t stream, const std::function<void()>& work, int warmups,
                               int runs, const std::function<void(int)>& before_each = {}) {
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmups; ++i) work();
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        if (before_each) before_each(i);
        CHECK(cudaEventRecord(start, stream));
        work();
        CHECK(cudaEventRecord(stop, stream));
        CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        times.push_back(ms);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    std::sort(times.begin(), times.end());
    return {times[times.size() / 2], times.front(), times.back()};
}

}  // namespace bench
