// Planted fault: fault=1 stores far outside y (an illegal address); the launch must fail and the
// worker must die and be replaced: expected verdict "launch_error".
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef fault
#define fault 0
#endif

__global__ void oob_write(int n, const float* x, float* y) {
    const long long i = static_cast<long long>(blockIdx.x) * block_size_x + threadIdx.x;
    if (i >= n) return;
    y[i] = 2.0f * x[i];
#if fault
    // 256 TiB past y: beyond every user-space address of x86-64 (4-level paging), so neither a
    // device allocation nor, with HMM, any host page of the worker can live there.
    if (i == 0) y[i + (1LL << 46)] = 1.0f;
#endif
}
