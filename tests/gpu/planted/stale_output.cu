// Planted fault: fault=1 writes only the even elements and leaves the odd ones as the previous run
// left them (right only if the output buffer is reused unpoisoned); the two-poison check must see
// the unwritten half: expected "unwritten".
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef fault
#define fault 0
#endif

__global__ void stale_output(int n, const float* x, float* y) {
    const long long i = static_cast<long long>(blockIdx.x) * block_size_x + threadIdx.x;
    if (i >= n) return;
    if (fault && i % 2 == 1) return;
    y[i] = 2.0f * x[i] + 1.0f;
}
