// Planted fault: fault=1 assumes n is a multiple of the block size, which holds at the spec's own
// size (2^20) but not at its check.extra_sizes entry (n = 1000003), where the last partial block
// is left unwritten. Only the second problem size reveals it: expected "unwritten", with a
// message that starts "at n=1000003". Its spec also times with "cold_cache": "rotate".
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef fault
#define fault 0
#endif

__global__ void tail_ignored(int n, const float* x, float* y) {
    const long long i = static_cast<long long>(blockIdx.x) * block_size_x + threadIdx.x;
#if fault
    if (i >= n / block_size_x * block_size_x) return;
#else
    if (i >= n) return;
#endif
    y[i] = 2.0f * x[i] + 1.0f;
}
