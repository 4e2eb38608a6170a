__global__ void scale(int n, float* x) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) x[i] *= 2.0f;
}
