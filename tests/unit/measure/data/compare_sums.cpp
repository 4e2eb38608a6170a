// A comparison function for the loader tests: a float32 output is a set of partial sums whose
// number may differ between configurations, so only their total is compared (within rtol).
#include <optiml/compare.h>

#include <cmath>
#include <cstdio>
#include <cstring>

extern "C" int optiml_compare(const optiml_compare_args* args) {
    if (args->abi_version != OPTIML_COMPARE_ABI_VERSION || args->type != OPTIML_FLOAT32) return 2;
    const auto* expected = static_cast<const float*>(args->expected);
    const auto* actual = static_cast<const float*>(args->actual);
    double want = 0.0, got = 0.0;
    for (size_t i = 0; i < args->count; ++i) {
        want += expected[i];
        got += actual[i];
    }
    if (std::fabs(got - want) <= args->atol + args->rtol * std::fabs(want)) return 0;
    long long n = -1;
    for (size_t i = 0; i < args->scalar_count; ++i)
        if (std::strcmp(args->scalars[i].name, "n") == 0) n = args->scalars[i].integer_value;
    std::snprintf(args->message, args->message_size, "total %g, expected %g (n=%lld)", got, want,
                  n);
    return 1;
}
