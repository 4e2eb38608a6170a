// Just enough of CUDA for kernels whose threads meet in warp shuffles, block barriers and
// shared memory to compile as host C++ and run with every thread of a block on a thread of its
// own: __shfl_xor_sync exchanges values between the 32 lanes of a warp as the GPU does (each
// shuffle a meeting of the warp's live lanes), __syncthreads is a meeting of the block's live
// threads, and __shared__ is static storage, which the threads of the one block running share.
// Blocks of a multiple of 32 threads, run one after another; atomicAdd is atomic among them.
#pragma once

#include <atomic>
#include <barrier>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
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
#define __shared__ static

inline float rsqrtf(float x) {
    return 1.0f / std::sqrt(x);
}

template <class T>
T __ldg(const T* p) {
    return *p;
}

template <class T>
T atomicAdd(T* address, T value) {
    return std::atomic_ref<T>(*address).fetch_add(value);
}

// CUDA's vector types of narrow integers, aligned as on the GPU.
struct alignas(4) uchar4 {
    unsigned char x, y, z, w;
};
struct alignas(8) ushort4 {
    unsigned short x, y, z, w;
};

// The lanes of one warp: where a shuffle's values meet, and the barrier each shuffle waits at.
struct HostWarp {
    std::barrier<> meet{32};
    unsigned char slots[32][8] = {};
};
inline thread_local HostWarp* this_warp = nullptr;
inline thread_local std::barrier<>* this_block = nullptr;

// How many times a thread waited at a block barrier: a test can tell a staged path ran.
inline std::atomic<long> barriers_passed{0};
// The block's vote of __syncthreads_and.
inline thread_local std::atomic<int>* this_block_noes = nullptr;

inline void __syncthreads() {
    barriers_passed.fetch_add(1);
    this_block->arrive_and_wait();
}

// Every thread of the block has voted before any counts; the count is cleared only once every
// thread has read it (before any thread can vote again).
inline int __syncthreads_and(int predicate) {
    this_block->arrive_and_wait();
    if (!predicate) this_block_noes->fetch_add(1);
    this_block->arrive_and_wait();
    const int all = this_block_noes->load() == 0;
    this_block->arrive_and_wait();
    if (threadIdx.x == 0 && threadIdx.y == 0) this_block_noes->store(0);
    return all;
}

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

// Runs `kernel()` for every thread of a 2-D grid of 2-D blocks: one block at a time, its threads
// at once (warps of 32 consecutive threads, x fastest, as on the GPU).
template <class Kernel>
void run_blocks(HostDim3 grid, HostDim3 block, Kernel kernel) {
    gridDim = {grid.x, grid.y, 1};
    blockDim = {block.x, block.y, 1};
    const unsigned size = block.x * block.y;
    if (size == 0 || size % 32 != 0 || size > 1024)
        throw std::invalid_argument("run_blocks: blocks of whole warps, at most 1024 threads");
    for (unsigned by = 0; by < grid.y; ++by)
        for (unsigned bx = 0; bx < grid.x; ++bx) {
            std::vector<std::unique_ptr<HostWarp>> warps;
            for (unsigned w = 0; w < size / 32; ++w) warps.push_back(std::make_unique<HostWarp>());
            std::barrier<> meet(static_cast<std::ptrdiff_t>(size));
            std::atomic<int> noes{0};
            std::vector<std::thread> threads;
            for (unsigned t = 0; t < size; ++t) {
                threads.emplace_back([&, bx, by, t] {
                    blockIdx = {bx, by, 0};
                    threadIdx = {t % block.x, t / block.x, 0};
                    this_warp = warps[t / 32].get();
                    this_block = &meet;
                    this_block_noes = &noes;
                    kernel();
                    // A thread that ended waits for no one.
                    this_warp->meet.arrive_and_drop();
                    this_block->arrive_and_drop();
                });
            }
            for (std::thread& thread : threads) thread.join();
        }
}

// The same for a 1-D grid of 1-D blocks.
template <class Kernel>
void run_warps(unsigned grid, unsigned block, Kernel kernel) {
    run_blocks({grid, 1, 1}, {block, 1, 1}, kernel);
}
