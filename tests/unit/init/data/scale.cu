// A Kernel Tuner style kernel: macros with #ifndef defaults.
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef items_per_thread
#define items_per_thread 2
#endif
#ifndef value_t
#define value_t float
#endif

__global__ void scale(int n, float factor, const float* __restrict__ in, float* out,
                      unsigned int* counts) {
    const int first = blockIdx.x * block_size_x * items_per_thread + threadIdx.x;
    for (int k = 0; k < items_per_thread; ++k) {
        const int i = first + k * block_size_x;
        if (i < n) out[i] = factor * in[i];
    }
    if (threadIdx.x == 0) atomicAdd(counts, 1u);
}
