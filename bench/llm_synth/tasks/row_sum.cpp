// The sum of each row of a row-major rows x cols matrix.
void row_sum_reference(const float* m, float* sums, int rows, int cols) {
    for (int r = 0; r < rows; ++r) {
        float sum = 0.0f;
        for (int c = 0; c < cols; ++c) sum += m[r * cols + c];
        sums[r] = sum;
    }
}
