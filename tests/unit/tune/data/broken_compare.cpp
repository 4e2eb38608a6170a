// Does not compile: the build must stop with an error naming this file.
#include <optiml/compare.h>

int optiml_compare(const optiml_compare_args* args) {
    return args->no_such_field;
}
