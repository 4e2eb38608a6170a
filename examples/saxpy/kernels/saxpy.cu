// y = a * x + y over n elements: memory-bound, tunable in the Kernel Tuner way.
// Each thread moves items_per_thread vectors of vector_size floats, spaced one grid apart, so
// every load and store of a warp stays coalesced whatever the parameters; all loads are issued
// before the first store, to keep many bytes in flight.
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef items_per_thread
#define items_per_thread 1
#endif
#ifndef vector_size  // floats per load and store: 1, 2 or 4
#define vector_size 1
#endif

template <int Size>
struct FloatVector;
template <>
struct FloatVector<1> {
    using type = float;
};
template <>
struct FloatVector<2> {
    using type = float2;
};
template <>
struct FloatVector<4> {
    using type = float4;
};

__global__ void __launch_bounds__(block_size_x)
    saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
    using Vector = typename FloatVector<vector_size>::type;
    // 64-bit: the last stride step may pass INT_MAX for n close to it.
    const long long stride = static_cast<long long>(gridDim.x) * block_size_x;
    const long long first = static_cast<long long>(blockIdx.x) * block_size_x + threadIdx.x;
    const bool aligned = (reinterpret_cast<unsigned long long>(x) |
                          reinterpret_cast<unsigned long long>(y)) % sizeof(Vector) == 0;

    if (!aligned) {  // pointers offset into an allocation: plain floats, same coverage
#pragma unroll
        for (int item = 0; item < items_per_thread * vector_size; ++item) {
            const long long i = first + item * stride;
            if (i < n) y[i] = a * x[i] + y[i];
        }
        return;
    }

    const long long vectors = n / vector_size;
    const Vector* xv = reinterpret_cast<const Vector*>(x);
    Vector* yv = reinterpret_cast<Vector*>(y);
    Vector xs[items_per_thread];
    Vector ys[items_per_thread];
#pragma unroll
    for (int item = 0; item < items_per_thread; ++item) {
        const long long i = first + item * stride;
        if (i < vectors) {
            xs[item] = xv[i];
            ys[item] = yv[i];
        }
    }
#pragma unroll
    for (int item = 0; item < items_per_thread; ++item) {
        const long long i = first + item * stride;
        if (i < vectors) {
            float* out = reinterpret_cast<float*>(&ys[item]);
            const float* in = reinterpret_cast<const float*>(&xs[item]);
#pragma unroll
            for (int lane = 0; lane < vector_size; ++lane) out[lane] = a * in[lane] + out[lane];
            yv[i] = ys[item];
        }
    }
    // The last n % vector_size elements, one thread each.
    const long long tail = vectors * vector_size + first;
    if (tail < n) y[tail] = a * x[tail] + y[tail];
}
