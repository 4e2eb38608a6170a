// Planted fault: fault=1 does its work in a child grid launched from the device (dynamic
// parallelism), outside the launch that events bracket. OptiML compiles without relocatable device
// code and never links the device runtime, so NVRTC must refuse it: expected "compile_error".
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef fault
#define fault 0
#endif

__global__ void other_stream_child(int n, const float* x, float* y) {
    const long long i = static_cast<long long>(blockIdx.x) * block_size_x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

__global__ void other_stream(int n, const float* x, float* y) {
#if fault
    if (blockIdx.x == 0 && threadIdx.x == 0)
        other_stream_child<<<(n + block_size_x - 1) / block_size_x, block_size_x>>>(n, x, y);
#else
    const long long i = static_cast<long long>(blockIdx.x) * block_size_x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
#endif
}
