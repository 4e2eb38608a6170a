// Sum reduction of n floats into partial sums, one per segment of `segment` consecutive
// elements: partials[s] = x[s * segment] + ... + x[min(n, (s + 1) * segment) - 1]. The segments do
// not depend on the parameters, so every configuration writes the same ceil(n / segment)
// partials, each the sum of the same elements; only the order of the additions differs (and with
// it the last bits of each partial), hence the check's tolerance. There are no atomics: each
// configuration adds in a fixed order and gives the same bits on every run.
//
// Parameters (they only ever arrive as -D; the spec's defaults are the original kernel):
//   block_size          threads per block, a power of two from 32 to 1024
//   vector_size         floats per load: 1 (float), 2 (float2) or 4 (float4)
//   unroll              vectors a thread loads per step of the block, into as many accumulators
//   use_shuffle         0: the block adds its threads' sums in a shared-memory tree, one barrier
//                       per level; 1: warp shuffles within each warp, then across the warps' sums
//   segments_per_block  segments a block sums one after another (fewer, longer-lived blocks)

template <int Size>
struct FloatVector;
template <>
struct FloatVector<1> {
    using type = float;
    __device__ static float add(float acc, float v) { return acc + v; }
};
template <>
struct FloatVector<2> {
    using type = float2;
    __device__ static float add(float acc, float2 v) { return acc + v.x + v.y; }
};
template <>
struct FloatVector<4> {
    using type = float4;
    __device__ static float add(float acc, float4 v) { return acc + v.x + v.y + v.z + v.w; }
};

__global__ void __launch_bounds__(block_size)
    reduction(int n, int segment, const float* x, float* partials) {
    using Vector = typename FloatVector<vector_size>::type;
    constexpr int warps = block_size / 32;
    __shared__ float shared[use_shuffle ? warps : block_size];

    const int t = threadIdx.x;
    const int segments = n / segment + (n % segment != 0);
    for (int q = 0; q < segments_per_block; ++q) {
        const int s = blockIdx.x * segments_per_block + q;
        if (s >= segments) break;  // the same for every thread of the block
        const long long begin = static_cast<long long>(s) * segment;
        const int count = static_cast<int>(min(static_cast<long long>(segment), n - begin));
        const float* base = x + begin;

        // Each thread's sum: whole vectors while the segment's start is aligned for them...
        float acc[unroll];
#pragma unroll
        for (int u = 0; u < unroll; ++u) acc[u] = 0.0f;
        int vectors = 0;
        if (reinterpret_cast<unsigned long long>(base) % sizeof(Vector) == 0) {
            vectors = count / vector_size;
            const Vector* v = reinterpret_cast<const Vector*>(base);
            for (int k = t; k < vectors; k += unroll * block_size) {
                Vector loaded[unroll];
#pragma unroll
                for (int u = 0; u < unroll; ++u)
                    if (k + u * block_size < vectors) loaded[u] = v[k + u * block_size];
#pragma unroll
                for (int u = 0; u < unroll; ++u)
                    if (k + u * block_size < vectors)
                        acc[u] = FloatVector<vector_size>::add(acc[u], loaded[u]);
            }
        }
        // ...then the elements after them (fewer than vector_size; all of them if misaligned).
        for (int i = vectors * vector_size + t; i < count; i += block_size) acc[0] += base[i];
        float sum = acc[0];
#pragma unroll
        for (int u = 1; u < unroll; ++u) sum += acc[u];

        // The block's sum of its threads' sums, in thread 0.
#if use_shuffle
#pragma unroll
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (warps > 1) {
            if (t % 32 == 0) shared[t / 32] = sum;
            __syncthreads();
            if (t < 32) {
                sum = t < warps ? shared[t] : 0.0f;
#pragma unroll
                for (int offset = warps / 2; offset > 0; offset /= 2)
                    sum += __shfl_down_sync(0xffffffffu, sum, offset);
            }
        }
#else
        shared[t] = sum;
        __syncthreads();
#pragma unroll
        for (int stride = block_size / 2; stride > 0; stride /= 2) {
            if (t < stride) shared[t] += shared[t + stride];
            __syncthreads();
        }
        sum = shared[0];
#endif
        if (t == 0) partials[s] = sum;
        if (segments_per_block > 1) __syncthreads();  // before the next segment reuses `shared`
    }
}
