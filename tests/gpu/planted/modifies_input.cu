// Planted fault: fault=1 flips the sign of its read-only input x after reading it; y = 2|x| is the
// same either way, so only the unmodified-input check can catch it: expected "input_modified".
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef fault
#define fault 0
#endif

__global__ void modifies_input(int n, float* x, float* y) {
    const long long i = static_cast<long long>(blockIdx.x) * block_size_x + threadIdx.x;
    if (i >= n) return;
    const float value = x[i];
    y[i] = 2.0f * fabsf(value);
#if fault
    x[i] = -value;
#endif
}
