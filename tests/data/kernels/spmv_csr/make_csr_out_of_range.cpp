// A generator that breaks spmv_csr's invariant on purpose (gpu.structured_inputs): the matrix of
// make_csr.cpp with every column index moved far beyond x (about 8 GB past it), so that the
// original kernel reads outside every allocation. OptiML must reject the inputs, naming this
// generator, rather than blame a variant.
#include <optiml/generate.h>

#include <cstring>

#include "csr_builder.h"

int optiml_generate(const optiml_generate_args* args) {
    optiml_buffer* buffers = args->buffers;  // row_ptr, col_idx, values: the spec's order
    long long rows = 0, cols = 0;
    for (size_t i = 0; i < args->scalar_count; ++i) {
        if (std::strcmp(args->scalars[i].name, "rows") == 0) rows = args->scalars[i].integer_value;
        if (std::strcmp(args->scalars[i].name, "cols") == 0) cols = args->scalars[i].integer_value;
    }
    const CsrMatrix m = random_csr(static_cast<int>(rows), static_cast<int>(cols),
                                   static_cast<int>(buffers[1].count), args->seed);
    std::memcpy(buffers[0].data, m.row_ptr.data(), m.row_ptr.size() * sizeof(int));
    int* columns = static_cast<int*>(buffers[1].data);
    for (size_t k = 0; k < buffers[1].count; ++k) columns[k] = 0x7fff0000;  // out of range
    std::memcpy(buffers[2].data, m.values.data(), m.values.size() * sizeof(float));
    return 0;
}
