// y = a * x + y, each thread handling items_per_thread elements; Kernel Tuner conventions:
// the tunable parameters are macros with #ifndef defaults.
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef items_per_thread
#define items_per_thread 1
#endif

__global__ void saxpy(int n, float a, const float* x, float* y) {
    const int first = (blockIdx.x * block_size_x * items_per_thread) + threadIdx.x;
    for (int item = 0; item < items_per_thread; ++item) {
        const int i = first + item * block_size_x;
        if (i < n) y[i] = a * x[i] + y[i];
    }
}
