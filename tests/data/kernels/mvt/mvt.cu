// x1 = x1 + A * y1 for a row-major n x n matrix A: the first kernel of PolyBench/GPU's mvt
// (matrix-vector product and transpose), written as that suite writes it: one thread per row,
// accumulating straight into the global element x1[i], the loop variable declared before the
// loop (C89), no qualifiers. The problem size is an argument here instead of a #define.
//
// Parameters (they only ever arrive as -D; the kernel reads blockDim.x):
//   block_size_x  threads a block
// Every configuration adds the same terms in the same order (j = 0, 1, ..., n - 1), so all give
// the same bits.
__global__ void mvt_kernel1(int n, float *a, float *x1, float *y_1)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
	{
		int j;
		for(j=0; j < n; j++)
		{
			x1[i] += a[i * n + j] * y_1[j];
		}
	}
}
