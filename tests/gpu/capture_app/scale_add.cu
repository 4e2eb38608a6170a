// The kernel `optiml capture` is tested on (known_launch.cu includes it; the captured spec names
// this file as its source, which NVRTC compiles on its own).
#ifndef block_size_x
#define block_size_x 256
#endif

__global__ void scale_add(int n, float a, const float* __restrict__ x, float* y) {
    const int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
