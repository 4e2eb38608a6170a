// y = a * x + y over n elements: memory-bound, tunable in the Kernel Tuner way.
// Each thread handles items_per_thread elements spaced one grid apart, so every load and store
// of a warp stays coalesced whatever the parameters.
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef items_per_thread
#define items_per_thread 1
#endif

__global__ void __launch_bounds__(block_size_x)
    saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
    // 64-bit: the last stride step may pass INT_MAX for n close to it.
    const long long stride = static_cast<long long>(gridDim.x) * block_size_x;
    long long i = static_cast<long long>(blockIdx.x) * block_size_x + threadIdx.x;
#pragma unroll
    for (int item = 0; item < items_per_thread; ++item, i += stride) {
        if (i < n) y[i] = a * x[i] + y[i];
    }
}
