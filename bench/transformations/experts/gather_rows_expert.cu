// The expert's embedding lookup (written for this bench): a warp per looked-up row, each lane
// copying float4s (rows of a multiple of 4 floats, 16-byte aligned), the rest one float a lane.
//
// Parameters: block_size_x (threads a block, a multiple of 32).
__global__ void gather_rows_expert(const float* __restrict__ table, const int* __restrict__ index,
                                   float* __restrict__ out, int rows, int dim) {
    const int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int lane = threadIdx.x % 32;
    if (r >= rows) return;
    const float* from = table + (long)__ldg(&index[r]) * dim;
    float* to = out + (long)r * dim;
    if (dim % 4 == 0) {
        const float4* from4 = reinterpret_cast<const float4*>(from);
        float4* to4 = reinterpret_cast<float4*>(to);
        for (int d = lane; d < dim / 4; d += 32) to4[d] = __ldg(&from4[d]);
    } else {
        for (int d = lane; d < dim; d += 32) to[d] = __ldg(&from[d]);
    }
}
