// The L2-resident case: C (320 x 640) = A (320 x 320) B (320 x 640), about 2 MB in all.
#include <optiml/matmul_l2_small.h>

#include "loop.cuh"

int main() {
    return l2_conditions::run(
        "small", 320, 640, 320,
        [](cudaStream_t s, int m, int n, int k, float* a, float* b, float* c) {
            return optiml::matmul_l2_small(s, m, n, k, a, b, c);
        },
        [](int device) { return optiml::matmul_l2_small_dispatch(device); });
}
