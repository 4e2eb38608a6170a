// A kernel that does almost nothing, to measure what the generated launcher costs per launch.
#ifndef block_size_x
#define block_size_x 256
#endif

__global__ void tiny(int n, float* x) {
    const int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
