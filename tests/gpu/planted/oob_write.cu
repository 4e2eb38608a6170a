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
    if (i == 0) y[i + (1LL << 36)] = 1.0f;  // 256 GiB past y: no allocation lives there
#endif
}
