// out (cols x rows) is the transpose of in (rows x cols), both row-major.
void transpose_reference(const float* in, float* out, int rows, int cols) {
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
}
