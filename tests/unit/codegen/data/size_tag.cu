// Test kernel for dispatch by problem size: every element gets the variant's `tag` parameter, so
// a program sees which variant its launch ran.
#ifndef tag
#define tag 0
#endif

extern "C" __global__ void size_tag(int n, int* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tag;
}
