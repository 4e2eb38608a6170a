// Bounds-safe element access for row-major matrices, shared by both paths of the matmul kernel.
#pragma once

// matrix[row][col] of a rows x cols matrix, or 0 outside it: a tile hanging over an edge then
// adds nothing to the sums.
__device__ __forceinline__ float load_or_zero(const float* __restrict__ matrix, int rows, int cols,
                                              int row, int col) {
    return (row < rows && col < cols) ? matrix[static_cast<long long>(row) * cols + col] : 0.0f;
}

// An index clamped to the last valid one: loads for outputs past the edge stay in bounds (those
// outputs are computed but never stored).
__device__ __forceinline__ int clamp_to_last(int index, int count) {
    return index < count ? index : count - 1;
}
