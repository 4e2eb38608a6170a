/* OptiML input generators: the C interface of a project's own code that makes a kernel's inputs.
 *
 * Random fills break kernels whose inputs must satisfy invariants: the row pointers and column
 * indices of a sparse matrix (sorted, in range), a polygon and the slopes derived from its
 * vertices. A spec then fills those arguments (and __constant__ symbols) from a C++ source,
 *
 *     "fill": {"kind": "generator", "source": "make_csr.cpp"}
 *
 * that defines optiml_generate() below. OptiML compiles it with the host C++ compiler into a
 * shared object, as it compiles a comparison function (compare.h), and calls it once for each
 * correctness trial's inputs: one call fills every entry whose fill names that source, so the
 * buffers agree with each other. docs/spec.md has an example.
 *
 * Plain C, so that the ABI does not depend on the compiler or its C++ library. The element types
 * and scalars are compare.h's.
 */
#ifndef OPTIML_GENERATE_H
#define OPTIML_GENERATE_H

#include "compare.h" /* beside this header: <optiml/compare.h> */

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a struct below changes; args->abi_version says which one OptiML filled. */
#define OPTIML_GENERATE_ABI_VERSION 1

/* One argument or __constant__ symbol to fill: `count` elements of `type` at `data` (zeroed). */
typedef struct optiml_buffer {
    const char* name; /* the entry's name in the spec */
    optiml_element_type type;
    size_t count;
    void* data;
} optiml_buffer;

typedef struct optiml_generate_args {
    int abi_version; /* OPTIML_GENERATE_ABI_VERSION */
    /* Differs between correctness trials and between tuning runs: draw random data from it. The
     * same seed (and scalars) must give the same data. */
    uint64_t seed;
    const optiml_scalar* scalars; /* every scalar argument, in the kernel's order */
    size_t scalar_count;
    optiml_buffer* buffers; /* the entries this source fills, arguments (in order) then constants */
    size_t buffer_count;
    char* message; /* on failure, say why here (NUL-terminated, at most message_size bytes) */
    size_t message_size;
} optiml_generate_args;

/* Fills every buffer and returns 0; anything else when it cannot (the message says why). The
 * arrays are host memory, valid only during the call. Defined by the project. */
int optiml_generate(const optiml_generate_args* args);

#ifdef __cplusplus
}
#endif

#endif /* OPTIML_GENERATE_H */
