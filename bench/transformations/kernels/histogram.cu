// A 256-bin histogram of bytes as it is usually first written: one thread per byte, one global
// atomic per byte. Every block's atomics queue in L2 on the same 256 words.
//
// Parameters (they only ever arrive as -D; the kernel reads blockDim.x):
//   block_size_x  threads a block
__global__ void histogram(const unsigned char* data, unsigned int* bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[data[i]], 1u);
}
