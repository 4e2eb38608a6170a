// Just enough of CUDA for kernels whose lanes meet only in warp shuffles to compile as host C++
// and run with every thread of a block on a thread of its own, so that __shfl_xor_sync exchanges
// values between the 32 lanes of a warp as the GPU does (each shuffle a meeting of the warp's
// live lanes). 1-D blocks of a multiple of 32 threads; no shared memory, barriers or atomics.
#pragma once

#include <barrier>
#include <cmath>
#include <cstring>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

struct HostDim3 {
    unsigned x = 0, y = 0, z = 0;
};
inline thread_local HostDim3 threadIdx, blockIdx;
inline HostDim3 blockDim, gridDim;

#define __global__
#define __launch_bounds__(...)

inline float rsqrtf(float x) {
    return 1.0f / std::sqrt(x);
}

template <class T>
T __ldg(const T* p) {
    return *p;
}

// The lanes of one warp: where a shuffle's values meet, and the barrier each shuffle waits at.
struct HostWarp {
    std::barrier<> meet{32};
    unsigned char slots[32][8] = {};
};
inline thread_local HostWarp* this_warp = nullptr;

// Every live lane writes its value, all meet, each reads its partner's, all meet again (so no
// slot is overwritten before it was read).
template <class T>
T __shfl_xor_sync(unsigned /*mask*/, T value, int offset) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>);
    const unsigned lane = threadIdx.x % 32;
    std::memcpy(this_warp->slots[lane], &value, sizeof(T));
    this_warp->meet.arrive_and_wait();
    T other;
    std::memcpy(&other, this_warp->slots[lane ^ static_cast<unsigned>(offset)], sizeof(T));
    this_warp->meet.arrive_and_wait();
    return other;
}

// Runs `kernel()` for every thread of a 1-D grid: one block at a time, its threads at once.
template <class Kernel>
void run_warps(unsigned grid, unsigned block, Kernel kernel) {
    gridDim = {grid, 1, 1};
    blockDim = {block, 1, 1};
    for (unsigned b = 0; b < grid; ++b) {
        std::vector<std::unique_ptr<HostWarp>> warps;
        for (unsigned w = 0; w < block / 32; ++w) warps.push_back(std::make_unique<HostWarp>());
        std::vector<std::thread> threads;
        for (unsigned t = 0; t < block; ++t) {
            threads.emplace_back([&, b, t] {
                blockIdx = {b, 0, 0};
                threadIdx = {t, 0, 0};
                this_warp = warps[t / 32].get();
                kernel();
                this_warp->meet.arrive_and_drop();  // a lane that ended waits for no one
            });
        }
        for (std::thread& thread : threads) thread.join();
    }
}
