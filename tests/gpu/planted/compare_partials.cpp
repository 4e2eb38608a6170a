// The comparison function of partial_sums.optiml.json: the output holds partial sums whose
// number depends on a tunable parameter, so a variant is right when its partials add up to the
// original's total (within the spec's rtol/atol), whatever their number.
#include <optiml/compare.h>

#include <cmath>
#include <cstdio>

namespace {

double total(const void* data, size_t count) {
    const auto* values = static_cast<const float*>(data);
    double sum = 0.0;
    for (size_t i = 0; i < count; ++i) sum += values[i];
    return sum;
}

}  // namespace

int optiml_compare(const optiml_compare_args* args) {
    if (args->type != OPTIML_FLOAT32) {
        std::snprintf(args->message, args->message_size, "expected float32 partials");
        return 1;
    }
    const double want = total(args->expected, args->count);
    const double got = total(args->actual, args->count);
    if (std::fabs(got - want) <= args->atol + args->rtol * std::fabs(want)) return 0;
    std::snprintf(args->message, args->message_size, "the partials add up to %.9g, expected %.9g",
                  got, want);
    return 1;
}
