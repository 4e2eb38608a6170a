// A tunable kernel for the evaluator tests: really compiled by NVRTC, timed by a scripted worker.
#ifndef block_size_x
#define block_size_x 256
#endif

__global__ void scale(int n, const float* x, float* y) {
    const int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}
