// The input generator of spmv_csr.optiml.json: one call fills row_ptr, col_idx and values with a
// random CSR matrix of `rows` x `cols` whose non-zeros are the count of col_idx, a new one for
// every seed (each correctness trial gets its own).
#include <optiml/generate.h>

#include <cstdio>
#include <cstring>

#include "csr_builder.h"

namespace {

optiml_buffer* find_buffer(const optiml_generate_args* args, const char* name) {
    for (size_t i = 0; i < args->buffer_count; ++i)
        if (std::strcmp(args->buffers[i].name, name) == 0) return &args->buffers[i];
    return nullptr;
}

long long scalar(const optiml_generate_args* args, const char* name) {
    for (size_t i = 0; i < args->scalar_count; ++i)
        if (std::strcmp(args->scalars[i].name, name) == 0) return args->scalars[i].integer_value;
    return -1;
}

}  // namespace

int optiml_generate(const optiml_generate_args* args) {
    optiml_buffer* row_ptr = find_buffer(args, "row_ptr");
    optiml_buffer* col_idx = find_buffer(args, "col_idx");
    optiml_buffer* values = find_buffer(args, "values");
    const long long rows = scalar(args, "rows");
    const long long cols = scalar(args, "cols");
    if (!row_ptr || !col_idx || !values || rows < 1 || cols < 1) {
        std::snprintf(args->message, args->message_size,
                      "expected buffers row_ptr, col_idx, values and scalars rows, cols >= 1");
        return 1;
    }
    if (row_ptr->type != OPTIML_INT32 || col_idx->type != OPTIML_INT32 ||
        values->type != OPTIML_FLOAT32 || row_ptr->count != static_cast<size_t>(rows) + 1 ||
        col_idx->count != values->count) {
        std::snprintf(args->message, args->message_size,
                      "expected int32 row_ptr of rows + 1, int32 col_idx and float32 values of "
                      "one count (got %zu, %zu, %zu elements)",
                      row_ptr->count, col_idx->count, values->count);
        return 1;
    }
    const CsrMatrix m = random_csr(static_cast<int>(rows), static_cast<int>(cols),
                                   static_cast<int>(col_idx->count), args->seed);
    std::memcpy(row_ptr->data, m.row_ptr.data(), m.row_ptr.size() * sizeof(int));
    std::memcpy(col_idx->data, m.col_idx.data(), m.col_idx.size() * sizeof(int));
    std::memcpy(values->data, m.values.data(), m.values.size() * sizeof(float));
    return 0;
}
