// Test fixture: a kernel left in the file that also holds the program's main(), which the
// generated launcher would compile a second time.
#include <cstdio>

__global__ void saxpy(int n, float a, const float* x, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

// "int main() {" in a comment or a string is not a definition: "int main() {"
int main(int argc, char** argv) {
    std::printf("%d %s\n", argc, argv[0]);
    return 0;
}
