// One step of a direct (all-pairs) gravitational n-body simulation: the acceleration of every
// body from all n bodies, in the formulation of GPU Gems 3, chapter 31 (Nyland, Harris, Prins,
// "Fast N-Body Simulation with CUDA"): positions are float4 (x, y, z, mass), the softened
// interaction is  a_i += m_j * r_ij / (|r_ij|^2 + eps^2)^(3/2),  computed with sqrtf and a
// division, and a block stages the bodies through shared memory one tile (one body per thread)
// at a time, all threads of the block reading the same tile.
//
// Parameters (they only ever arrive as -D; the spec's defaults are the original kernel):
//   block_size_x       threads per block, and bodies per shared-memory tile
//   bodies_per_thread  bodies whose accelerations a thread accumulates (each tile body is read
//                      once from shared memory for all of them): more registers per thread,
//                      fewer threads
// The j loop runs over the bodies in order 0, 1, ..., n - 1 for every configuration, so all
// variants add the same terms in the same order. Bodies past n (the last tile's padding) have
// zero mass and contribute exactly zero. A body's interaction with itself is zero (r = 0, and the
// softening keeps the denominator positive).
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef bodies_per_thread
#define bodies_per_thread 1
#endif

__device__ float3 body_body_interaction(float4 bi, float4 bj, float3 ai, float softening_squared) {
    float3 r;
    r.x = bj.x - bi.x;
    r.y = bj.y - bi.y;
    r.z = bj.z - bi.z;
    float dist_sqr = r.x * r.x + r.y * r.y + r.z * r.z + softening_squared;
    float dist_sixth = dist_sqr * dist_sqr * dist_sqr;
    float inv_dist_cube = 1.0f / sqrtf(dist_sixth);
    float s = bj.w * inv_dist_cube;
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}

// positions: n float4 (x, y, z, mass); accelerations: n float4 (ax, ay, az, 0).
__global__ void nbody(int n, float softening_squared, const float* positions, float* accelerations) {
    __shared__ float4 tile[block_size_x];
    const float4* bodies = reinterpret_cast<const float4*>(positions);
    float4* out = reinterpret_cast<float4*>(accelerations);

    // This thread's bodies: first, first + block_size_x, ..., within the block's range.
    int first = blockIdx.x * block_size_x * bodies_per_thread + threadIdx.x;
    float4 body[bodies_per_thread];
    float3 acc[bodies_per_thread];
    for (int k = 0; k < bodies_per_thread; ++k) {
        int i = first + k * block_size_x;
        body[k] = i < n ? bodies[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        acc[k] = make_float3(0.0f, 0.0f, 0.0f);
    }

    for (int start = 0; start < n; start += block_size_x) {
        int j = start + threadIdx.x;
        tile[threadIdx.x] = j < n ? bodies[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        __syncthreads();
        for (int t = 0; t < block_size_x; ++t)
            for (int k = 0; k < bodies_per_thread; ++k)
                acc[k] = body_body_interaction(body[k], tile[t], acc[k], softening_squared);
        __syncthreads();
    }

    for (int k = 0; k < bodies_per_thread; ++k) {
        int i = first + k * block_size_x;
        if (i < n) out[i] = make_float4(acc[k].x, acc[k].y, acc[k].z, 0.0f);
    }
}
