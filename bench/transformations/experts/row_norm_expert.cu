// The expert's row normalization (written for this bench): a warp per row, the row read once
// into registers as float4s (cols a multiple of 128, at most 32 * 4 * kChunks), the mean and
// the variance each combined by shuffles, then normalized from the registers.
//
// Parameters: block_size_x (threads a block, a multiple of 32); the kernel handles cols up to
// 4 * 32 * 8 = 1024 from registers.
constexpr int kChunks = 8;

__device__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void row_norm_expert(const float* __restrict__ x, const float* __restrict__ gamma,
                                const float* __restrict__ beta, float* __restrict__ y, int rows,
                                int cols) {
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int lane = threadIdx.x % 32;
    if (row >= rows) return;
    const float4* in = reinterpret_cast<const float4*>(x + (long)row * cols);
    float4* out = reinterpret_cast<float4*>(y + (long)row * cols);
    const int quads = cols / 4;
    float4 v[kChunks];
    float sum = 0.0f;
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
        const int q = lane + 32 * c;
        v[c] = q < quads ? __ldg(&in[q]) : make_float4(0.f, 0.f, 0.f, 0.f);
        sum += v[c].x + v[c].y + v[c].z + v[c].w;
    }
    const float mean = warp_sum(sum) / cols;
    float squares = 0.0f;
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
        if (lane + 32 * c >= quads) continue;
        const float a = v[c].x - mean, b = v[c].y - mean, d = v[c].z - mean, e = v[c].w - mean;
        squares += a * a + b * b + d * d + e * e;
    }
    const float scale = rsqrtf(warp_sum(squares) / cols + 1e-5f);
    const float4* g = reinterpret_cast<const float4*>(gamma);
    const float4* b = reinterpret_cast<const float4*>(beta);
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
        const int q = lane + 32 * c;
        if (q >= quads) continue;
        const float4 gq = __ldg(&g[q]), bq = __ldg(&b[q]);
        out[q] = make_float4((v[c].x - mean) * scale * gq.x + bq.x,
                             (v[c].y - mean) * scale * gq.y + bq.y,
                             (v[c].z - mean) * scale * gq.z + bq.z,
                             (v[c].w - mean) * scale * gq.w + bq.w);
    }
}
