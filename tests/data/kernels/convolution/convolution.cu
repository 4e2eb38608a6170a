// 2-D convolution of a width x height image with a 17 x 17 filter, tunable in the Kernel Tuner
// way (its parameters only ever arrive as -D; the spec's defaults are the original kernel).
//
// The input image is padded by the filter's border: it holds (height + 16) rows of
// (width + 16) floats, and output pixel (x, y) is
//     sum over i < 17, j < 17 of filter[i * 17 + j] * input[(y + i) * (width + 16) + x + j],
// added in that order (i, then j) by every configuration, so that all variants give the same
// bits. The filter lives in constant memory (every thread of a warp reads the same element).
//
// A block of block_size_x x block_size_y threads computes a tile of
// (block_size_y * tile_size_y) x (block_size_x * tile_size_x) output pixels; thread (tx, ty)
// computes the pixels (tx + xi * block_size_x, ty + yi * block_size_y) of it, so that the lanes
// of a warp read consecutive shared-memory words. The block first copies the input its tile
// needs, the tile plus a 16-pixel border, into shared memory.
//   use_padding: rows of the shared tile start 16 words after a multiple of 32 instead of on one.
//     A warp whose lanes span two rows of the tile (block_size_x = 16, 48, 80 or 112) then reads
//     two disjoint halves of the 32 banks instead of the same ones twice. The spec allows it
//     only where it changes the layout (block_size_x * tile_size_x an odd multiple of 16).
//   read_only: the copy into shared memory loads through the read-only data cache (__ldg).
// Pixels outside the image (a partial tile at the right or bottom border) are neither loaded
// nor written.

constexpr int filter_width = 17;
constexpr int filter_height = 17;

__constant__ float filter[filter_height * filter_width];

__global__ void __launch_bounds__(block_size_x * block_size_y)
    convolution(int width, int height, float* output, const float* input) {
    constexpr int tile_width = block_size_x * tile_size_x;    // output pixels of a block, x
    constexpr int tile_height = block_size_y * tile_size_y;   // output pixels of a block, y
    constexpr int shared_width = tile_width + filter_width - 1;
    constexpr int shared_height = tile_height + filter_height - 1;
    constexpr int shared_stride =
        use_padding ? shared_width + (48 - shared_width % 32) % 32 : shared_width;
    __shared__ float tile[shared_height * shared_stride];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int x0 = blockIdx.x * tile_width;   // first output column of the block
    const int y0 = blockIdx.y * tile_height;  // first output row of the block
    const int input_width = width + filter_width - 1;
    const int input_height = height + filter_height - 1;

#pragma unroll
    for (int i = ty; i < shared_height; i += block_size_y) {
#pragma unroll
        for (int j = tx; j < shared_width; j += block_size_x) {
            const int y = y0 + i;
            const int x = x0 + j;
            float value = 0.0f;
            if (y < input_height && x < input_width) {
#if read_only
                value = __ldg(&input[y * input_width + x]);
#else
                value = input[y * input_width + x];
#endif
            }
            tile[i * shared_stride + j] = value;
        }
    }
    __syncthreads();

    float sum[tile_size_y][tile_size_x];
#pragma unroll
    for (int yi = 0; yi < tile_size_y; ++yi)
#pragma unroll
        for (int xi = 0; xi < tile_size_x; ++xi) sum[yi][xi] = 0.0f;

#pragma unroll 1
    for (int i = 0; i < filter_height; ++i) {
#pragma unroll
        for (int j = 0; j < filter_width; ++j) {
            const float f = filter[i * filter_width + j];
#pragma unroll
            for (int yi = 0; yi < tile_size_y; ++yi)
#pragma unroll
                for (int xi = 0; xi < tile_size_x; ++xi)
                    sum[yi][xi] += f * tile[(ty + yi * block_size_y + i) * shared_stride +
                                            tx + xi * block_size_x + j];
        }
    }

#pragma unroll
    for (int yi = 0; yi < tile_size_y; ++yi) {
#pragma unroll
        for (int xi = 0; xi < tile_size_x; ++xi) {
            const int y = y0 + ty + yi * block_size_y;
            const int x = x0 + tx + xi * block_size_x;
            if (y < height && x < width) output[y * width + x] = sum[yi][xi];
        }
    }
}
