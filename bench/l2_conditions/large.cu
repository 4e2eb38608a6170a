// The case whose data does not fit in L2: C (4096 x 4096) = A (4096 x 1024) B (1024 x 4096),
// 96 MiB in all.
#include <optiml/matmul_l2_large.h>

#include "loop.cuh"

int main() {
    return l2_conditions::run(
        "large", 4096, 4096, 1024,
        [](cudaStream_t s, int m, int n, int k, float* a, float* b, float* c) {
            return optiml::matmul_l2_large(s, m, n, k, a, b, c);
        },
        [](int device) { return optiml::matmul_l2_large_dispatch(device); });
}
