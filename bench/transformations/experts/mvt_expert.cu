// The expert's x1 = x1 + A y1 (written for this bench): a warp per row of A, each lane a float4
// of the row at a time (n a multiple of 4; else one float), the dot product combined by
// shuffles, lane 0 adding it to x1 once.
//
// Parameters: block_size_x (threads a block, a multiple of 32).
__global__ void mvt_expert(int n, const float* __restrict__ a, float* __restrict__ x1,
                           const float* __restrict__ y_1) {
    const int i = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int lane = threadIdx.x % 32;
    if (i >= n) return;
    const float* row = a + (long)i * n;
    float sum = 0.0f;
    if (n % 4 == 0) {
        const float4* row4 = reinterpret_cast<const float4*>(row);
        const float4* y4 = reinterpret_cast<const float4*>(y_1);
        for (int q = lane; q < n / 4; q += 32) {
            const float4 m = __ldg(&row4[q]), v = __ldg(&y4[q]);
            sum += m.x * v.x + m.y * v.y + m.z * v.z + m.w * v.w;
        }
    } else {
        for (int j = lane; j < n; j += 32) sum += __ldg(&row[j]) * __ldg(&y_1[j]);
    }
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    if (lane == 0) x1[i] += sum;
}
