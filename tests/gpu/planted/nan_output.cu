// Planted fault: fault=1 writes NaN into one element in 65536 (every element is written, the same
// way on every run); the comparison with the original must reject it: expected "mismatch".
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef fault
#define fault 0
#endif

__global__ void nan_output(int n, const float* x, float* y) {
    const long long i = static_cast<long long>(blockIdx.x) * block_size_x + threadIdx.x;
    if (i >= n) return;
    y[i] = 2.0f * x[i];
#if fault
    if (i % 65536 == 12345) y[i] = __int_as_float(0x7fc00000);  // a quiet NaN
#endif
}
