// C = alpha * A * B + beta * C for row-major matrices (A is ni x nk, B nk x nj, C ni x nj): the
// kernel of PolyBench/GPU's gemm, written as that suite writes it: one thread per element of C,
// scaling C[i][j] in place, then accumulating straight into the global element over k, the loop
// variable declared before the loop (C89), no qualifiers. Sizes, alpha and beta are arguments
// here instead of #defines.
//
// Parameters (they only ever arrive as -D; the kernel reads blockDim):
//   block_size_x, block_size_y  the thread block; thread (x, y) of the grid computes C[y][x]
// Every configuration adds the same terms in the same order (k = 0, 1, ..., nk - 1), so all give
// the same bits.
__global__ void gemm_kernel(int ni, int nj, int nk, float alpha, float beta, float *a, float *b,
                            float *c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < ni) && (j < nj))
	{
		c[i * nj + j] *= beta;
		int k;
		for(k=0; k < nk; k++)
		{
			c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj +j];
		}
	}
}
