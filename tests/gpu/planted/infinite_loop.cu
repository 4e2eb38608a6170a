// Planted fault: fault=1 makes one thread spin forever, so the kernel never finishes; the hang
// timeout must kill the worker: expected verdict "timeout".
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef fault
#define fault 0
#endif

__global__ void infinite_loop(int n, const float* x, float* y) {
    const long long i = static_cast<long long>(blockIdx.x) * block_size_x + threadIdx.x;
    if (i >= n) return;
    y[i] = 2.0f * x[i];
#if fault
    if (i == 0) {
        // Volatile global loads cannot be elided, and nothing changes x while the kernel runs.
        const volatile float* watched = x;
        const float first = watched[0];
        while (watched[0] == first) {
        }
    }
#endif
}
