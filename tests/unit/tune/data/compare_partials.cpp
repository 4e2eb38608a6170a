// A comparison function as a project writes one: the output holds partial sums whose number
// depends on a tunable parameter, so only their total must match the original's.
#include <optiml/compare.h>

#include <cmath>
#include <cstdio>

#include "partials_total.h"

int optiml_compare(const optiml_compare_args* args) {
    const double want = partials_total(args->expected, args->count);
    const double got = partials_total(args->actual, args->count);
    if (std::fabs(got - want) <= args->atol + args->rtol * std::fabs(want)) return 0;
    std::snprintf(args->message, args->message_size, "partials add up to %g, expected %g", got,
                  want);
    return 1;
}
