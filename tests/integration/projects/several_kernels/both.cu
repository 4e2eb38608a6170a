#include <optiml/matmul.h>
#include <optiml/saxpy.h>

// Links both launchers; the test builds it and never runs it.
int main() {
    const optiml::rt::Dispatch saxpy = optiml::saxpy_dispatch(0);
    const optiml::rt::Dispatch matmul = optiml::matmul_dispatch(0);
    const bool launched =
        optiml::saxpy(nullptr, 0, 1.0f, nullptr, nullptr) == cudaSuccess &&
        optiml::matmul(nullptr, 0, 0, 0, nullptr, nullptr, nullptr) == cudaSuccess;
    return saxpy.variant + matmul.variant + (launched ? 1 : 0);
}
