// Planted fault: fault=1 returns without writing its int32 output (skipping the work); only the
// two-poison check sees it (no float NaN poison involved): expected "unwritten".
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef fault
#define fault 0
#endif

__global__ void writes_nothing(int n, const int* x, int* y) {
    const long long i = static_cast<long long>(blockIdx.x) * block_size_x + threadIdx.x;
    if (fault || i >= n) return;
    y[i] = 3 * x[i] + 1;
}
