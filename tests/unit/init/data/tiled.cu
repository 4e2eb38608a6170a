// A template kernel: a type parameter and an integer one, both with defaults; 2-D blocks.
#ifndef block_size_x
#define block_size_x 16
#endif
#ifndef block_size_y
#define block_size_y 16
#endif

template <typename T = double, int TILE = 4>
__global__ void tiled(long long rows, const T* a, T* b, __half* h) {
    b[blockIdx.x] = a[blockIdx.y] * TILE;
}
