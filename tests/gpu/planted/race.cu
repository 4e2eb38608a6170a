// Planted fault: fault=1 builds the int32 histogram with a non-atomic read-modify-write, so ~16K
// threads per bin lose each other's updates in a scheduling-dependent way; running twice on the
// same inputs must reveal it: expected "nondeterministic".
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef fault
#define fault 0
#endif

__global__ void race(int n, const int* x, int* bins) {
    const long long i = static_cast<long long>(blockIdx.x) * block_size_x + threadIdx.x;
    if (i >= n) return;
    const int bin = x[i] & 63;
#if fault
    volatile int* racy = bins;  // volatile: a real load and store per thread, never merged
    racy[bin] = racy[bin] + 1;
#else
    atomicAdd(&bins[bin], 1);
#endif
}
