// Includes a generated launcher's .cu to call its table_for_size() on the host: which table each
// launch size picks on variant 0, and the note of an untuned size. No GPU needed.
#include "optiml_size_tag.cu"

#include <cstdio>

namespace generated = optiml_generated_size_tag;

const char* table_name(const optiml::rt::KernelTable* table) {
    if (table == &generated::table) return "table";
    if (table == &generated::size_1_table) return "size_1_table";
    if (table == &generated::size_2_table) return "size_2_table";
    return "unknown";
}

int main() {
    const double sizes[] = {1000, 16384, 131071, 131072, 4194303, 4194304, 33554432, 1e9};
    for (const double size : sizes)
        std::printf("%.0f -> %s\n", size, table_name(generated::table_for_size(0, size)));
    std::printf("variant 5 -> %s\n", table_name(generated::table_for_size(5, 1000)));
    return 0;
}
