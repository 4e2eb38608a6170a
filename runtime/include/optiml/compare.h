/* OptiML comparison functions: the C interface of a project's own check of a variant's output.
 *
 * Some kernels' outputs legitimately differ between configurations (a reduction whose number of
 * partial sums depends on a tunable parameter, say), so comparing them element by element with
 * the original kernel's would reject correct variants. A spec then names a C++ source,
 *
 *     "check": {"compare": "compare_partials.cpp"}
 *
 * that defines optiml_compare() below. OptiML compiles it with the host C++ compiler into a
 * shared object and calls it, instead of the element-wise comparison, once for every output
 * (and inout) argument of every correctness trial. Every other check still applies: outputs are
 * poisoned and must be written in full, two runs on the same inputs must agree, read-only inputs
 * must come back unchanged. docs/spec.md has an example.
 *
 * Plain C, so that the ABI does not depend on the compiler or its C++ library.
 */
#ifndef OPTIML_COMPARE_H
#define OPTIML_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a struct below changes; args->abi_version says which one OptiML filled. */
#define OPTIML_COMPARE_ABI_VERSION 1

/* The spec's element types ("int32" is OPTIML_INT32, ...). */
typedef enum optiml_element_type {
    OPTIML_INT8 = 0,
    OPTIML_INT16 = 1,
    OPTIML_INT32 = 2,
    OPTIML_INT64 = 3,
    OPTIML_UINT8 = 4,
    OPTIML_UINT16 = 5,
    OPTIML_UINT32 = 6,
    OPTIML_UINT64 = 7,
    OPTIML_FLOAT32 = 8,
    OPTIML_FLOAT64 = 9
} optiml_element_type;

/* A scalar argument of the kernel with the value it had in this run (the spec's `value`, or an
 * entry of check.extra_sizes). */
typedef struct optiml_scalar {
    const char* name;
    optiml_element_type type;
    int64_t integer_value; /* integer types */
    double value;          /* every type */
} optiml_scalar;

typedef struct optiml_compare_args {
    int abi_version;              /* OPTIML_COMPARE_ABI_VERSION */
    const char* output_name;      /* the argument's name in the spec */
    optiml_element_type type;     /* its element type */
    size_t count;                 /* its number of elements */
    const void* expected;         /* the original kernel's output (count elements of type) */
    const void* actual;           /* the variant's output, same shape */
    const optiml_scalar* scalars; /* every scalar argument, in the kernel's order */
    size_t scalar_count;
    double rtol; /* the spec's check.rtol and check.atol, for the function to use if it likes */
    double atol;
    char* message; /* on a mismatch, say why here (NUL-terminated, at most message_size bytes) */
    size_t message_size;
} optiml_compare_args;

/* Returns 0 when `actual` is an acceptable result, anything else when it is not. The arrays are
 * host memory, read-only, valid only during the call. Defined by the project. */
int optiml_compare(const optiml_compare_args* args);

#ifdef __cplusplus
}
#endif

#endif /* OPTIML_COMPARE_H */
