// Calls the generated launcher once; without a GPU it returns an error, which is all it can do.
#include <cstdio>

#include <optiml/tiled_matmul.h>

int main() {
    const cudaError_t status = optiml::tiled_matmul(nullptr, 0, nullptr, nullptr, nullptr);
    std::printf("tiled_matmul: %s\n", cudaGetErrorString(status));
    return 0;
}
