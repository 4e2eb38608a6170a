// Partial sums whose number is a tunable parameter: `partials` blocks each add up a strided
// share of x into out[block]; the remaining slots of out (it has `slots` elements) are zeros, so
// every element is written by every configuration. Configurations differ element by element
// but add up to the same total: the element-wise check rejects every one but the original
// (partial_sums_elementwise.optiml.json), the spec's comparison function, which compares
// totals, accepts them all (partial_sums.optiml.json). Run by tests/gpu/custom_compare.sh.
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef partials
#define partials 64
#endif

__global__ void partial_sums(int n, int slots, const float* x, float* out) {
    __shared__ float shared[block_size_x];
    float sum = 0.0f;
    const long long step = static_cast<long long>(gridDim.x) * block_size_x;
    for (long long i = static_cast<long long>(blockIdx.x) * block_size_x + threadIdx.x; i < n;
         i += step)
        sum += x[i];
    shared[threadIdx.x] = sum;
    __syncthreads();
    for (int half = block_size_x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) shared[threadIdx.x] += shared[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = shared[0];
    if (blockIdx.x == 0)
        for (int k = partials + threadIdx.x; k < slots; k += block_size_x) out[k] = 0.0f;
}
