// An existing kernel as the reference: C = A * B, row-major. It is launched with the synthesized
// spec's geometry, so it loops over C with grid strides: every element at any geometry.
extern "C" __global__ void matmul_naive(const float* A, const float* B, float* C, int M, int N,
                                        int K) {
    const int threads = gridDim.x * blockDim.x * gridDim.y * blockDim.y * gridDim.z * blockDim.z;
    const int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    const int thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    for (int at = block * blockDim.x * blockDim.y * blockDim.z + thread; at < M * N; at += threads) {
        const int row = at / N;
        const int col = at % N;
        float sum = 0.0f;
        for (int k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
        C[at] = sum;
    }
}
