// Test fixture: the kernel is a function template, as CUDA samples write them; a spec must name
// one instance of it ("saxpy<256>"), never the bare template name.
#include <cstdio>  // host code beside the kernel, as in such samples

/* A comment that mentions __global__ void saxpy( must not count as a declaration. */
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) saxpy(int n, float a, const float* x, float* y) {
    const int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
