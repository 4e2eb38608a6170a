// The all-pairs n-body step of tests/data/kernels/nbody (GPU Gems 3, chapter 31) with five
// parameters, written to be recorded exhaustively as a large, compute-bound tuning space that
// mixes numeric parameters with method choices and holds configurations that fail to compile or
// launch. Positions are float4 (x, y, z, mass); a_i += m_j r_ij / (|r_ij|^2 + eps^2)^(3/2).
//
// Parameters (they only ever arrive as -D; the spec's defaults are the tests/data/kernels/nbody
// original):
//   block_size_x       threads per block
//   bodies_per_thread  accumulators per thread (each body read once for all of them)
//   unroll_j           unroll factor of the loop over the bodies read
//   inverse            how (|r|^2 + eps^2)^(-3/2) is computed: 0 1/sqrtf(d^3), 1 rsqrtf(d)^3,
//                      2 1/(d sqrtf(d))
//   tile_factor        0: every thread reads the bodies from global memory (read-only path);
//                      k > 0: the block stages k * block_size_x bodies at a time in shared memory
// Every configuration adds the terms in the order j = 0, 1, ..., n - 1.
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef bodies_per_thread
#define bodies_per_thread 1
#endif
#ifndef unroll_j
#define unroll_j 1
#endif
#ifndef inverse
#define inverse 0
#endif
#ifndef tile_factor
#define tile_factor 1
#endif

// #pragma unroll takes a constant expression, not a macro.
constexpr int unroll_factor = unroll_j;

__device__ __forceinline__ float inverse_cube(float dist_sqr) {
#if inverse == 0
    return 1.0f / sqrtf(dist_sqr * dist_sqr * dist_sqr);
#elif inverse == 1
    float r = rsqrtf(dist_sqr);
    return r * r * r;
#else
    return 1.0f / (dist_sqr * sqrtf(dist_sqr));
#endif
}

__device__ __forceinline__ float3 interact(float4 bi, float4 bj, float3 ai, float softening_squared) {
    float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
    float s = bj.w * inverse_cube(r.x * r.x + r.y * r.y + r.z * r.z + softening_squared);
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}

// positions: n float4 (x, y, z, mass); accelerations: n float4 (ax, ay, az, 0).
__global__ void nbody_space(int n, float softening_squared, const float* __restrict__ positions,
                            float* __restrict__ accelerations) {
    const float4* bodies = reinterpret_cast<const float4*>(positions);
    float4* out = reinterpret_cast<float4*>(accelerations);

    int first = blockIdx.x * block_size_x * bodies_per_thread + threadIdx.x;
    float4 body[bodies_per_thread];
    float3 acc[bodies_per_thread];
#pragma unroll
    for (int k = 0; k < bodies_per_thread; ++k) {
        int i = first + k * block_size_x;
        body[k] = i < n ? bodies[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        acc[k] = make_float3(0.0f, 0.0f, 0.0f);
    }

#if tile_factor == 0
#pragma unroll unroll_factor
    for (int j = 0; j < n; ++j) {
        float4 bj = __ldg(&bodies[j]);
#pragma unroll
        for (int k = 0; k < bodies_per_thread; ++k) acc[k] = interact(body[k], bj, acc[k], softening_squared);
    }
#else
    constexpr int tile_bodies = tile_factor * block_size_x;
    __shared__ float4 tile[tile_bodies];
    for (int start = 0; start < n; start += tile_bodies) {
#pragma unroll
        for (int l = 0; l < tile_factor; ++l) {
            int j = start + l * block_size_x + threadIdx.x;
            tile[l * block_size_x + threadIdx.x] = j < n ? bodies[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
        __syncthreads();
#pragma unroll unroll_factor
        for (int t = 0; t < tile_bodies; ++t) {
#pragma unroll
            for (int k = 0; k < bodies_per_thread; ++k) acc[k] = interact(body[k], tile[t], acc[k], softening_squared);
        }
        __syncthreads();
    }
#endif

#pragma unroll
    for (int k = 0; k < bodies_per_thread; ++k) {
        int i = first + k * block_size_x;
        if (i < n) out[i] = make_float4(acc[k].x, acc[k].y, acc[k].z, 0.0f);
    }
}
