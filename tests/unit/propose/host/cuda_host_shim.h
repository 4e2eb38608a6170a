// Just enough of CUDA for kernels without shared memory, barriers or atomics to compile as host
// C++ and run one thread at a time: the vector types (aligned as CUDA aligns them), the thread
// and block indices, __ldg.
#pragma once

#include <cmath>

struct alignas(8) float2 {
    float x, y;
};
struct alignas(16) float4 {
    float x, y, z, w;
};
struct HostDim3 {
    unsigned x = 0, y = 0, z = 0;
};
inline HostDim3 threadIdx, blockIdx, blockDim, gridDim;

#define __global__
#define __launch_bounds__(...)

template <class T>
T __ldg(const T* p) {
    return *p;
}

// Runs `kernel()` for every thread of a 2-D grid, one after the other.
template <class Kernel>
void run_grid(HostDim3 grid, HostDim3 block, Kernel kernel) {
    gridDim = grid;
    blockDim = block;
    for (unsigned by = 0; by < grid.y; ++by)
        for (unsigned bx = 0; bx < grid.x; ++bx)
            for (unsigned ty = 0; ty < block.y; ++ty)
                for (unsigned tx = 0; tx < block.x; ++tx) {
                    blockIdx = {bx, by, 0};
                    threadIdx = {tx, ty, 0};
                    kernel();
                }
}
