// The expert's histogram (written for this bench): each block counts into its own 256 bins in
// shared memory over a grid-stride loop of 4-byte loads, then adds its bins to the global ones
// once. The data is read at the bandwidth floor; the atomics stay in shared memory.
//
// Parameters: block_size_x (threads a block); the grid is `blocks` (a launch parameter).
__global__ void histogram_expert(const unsigned char* data, unsigned int* bins, int n) {
    __shared__ unsigned int local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
    __syncthreads();
    const int stride = gridDim.x * blockDim.x;
    const int quads = n / 4;
    const uchar4* data4 = reinterpret_cast<const uchar4*>(data);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < quads; i += stride) {
        const uchar4 v = data4[i];
        atomicAdd(&local[v.x], 1u);
        atomicAdd(&local[v.y], 1u);
        atomicAdd(&local[v.z], 1u);
        atomicAdd(&local[v.w], 1u);
    }
    for (int i = quads * 4 + blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}
