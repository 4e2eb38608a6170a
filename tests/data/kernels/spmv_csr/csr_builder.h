// A random sparse matrix in CSR form, the same for the same seed: `nnz` non-zeros spread over
// `rows` rows at random (rows of different lengths, some empty; at most `cols` each), the columns
// of each row distinct, sorted and in [0, cols), values uniform in [-1, 1). Shared by the spec's
// generators.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

struct CsrMatrix {
    std::vector<int> row_ptr;   // rows + 1
    std::vector<int> col_idx;   // nnz
    std::vector<float> values;  // nnz
};

inline CsrMatrix random_csr(int rows, int cols, int nnz, std::uint64_t seed) {
    std::mt19937_64 engine(seed);
    CsrMatrix m;
    m.row_ptr.assign(static_cast<std::size_t>(rows) + 1, 0);
    std::uniform_int_distribution<int> row_of(0, rows - 1);
    for (int k = 0; k < nnz; ++k) ++m.row_ptr[static_cast<std::size_t>(row_of(engine)) + 1];
    // a row holds at most `cols` distinct columns (the non-zeros beyond are dropped)
    for (int& length : m.row_ptr) length = std::min(length, cols);
    for (int r = 0; r < rows; ++r)
        m.row_ptr[static_cast<std::size_t>(r) + 1] += m.row_ptr[static_cast<std::size_t>(r)];
    m.col_idx.resize(static_cast<std::size_t>(m.row_ptr.back()));
    std::uniform_int_distribution<int> column(0, cols - 1);
    for (int r = 0; r < rows; ++r) {
        const auto begin = m.col_idx.begin() + m.row_ptr[static_cast<std::size_t>(r)];
        const auto end = m.col_idx.begin() + m.row_ptr[static_cast<std::size_t>(r) + 1];
        const int length = static_cast<int>(end - begin);
        for (auto it = begin; it != end; ++it) *it = column(engine);
        std::sort(begin, end);
        // strictly increasing, then pulled back below cols: distinct, sorted, in range
        for (auto it = begin; it != end; ++it)
            if (it != begin) *it = std::max(*it, *(it - 1) + 1);
        for (int i = length - 1; i >= 0; --i) begin[i] = std::min(begin[i], cols - (length - i));
    }
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    m.values.resize(m.col_idx.size());
    for (float& v : m.values) v = value(engine);
    return m;
}
