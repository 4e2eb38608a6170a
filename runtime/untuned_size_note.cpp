// The line a launch outside a kernel's tuned sizes prints, once.
#include <cstdio>

#include <optiml/runtime.h>

namespace optiml::rt {

void UntunedSizeNote::say(double size) noexcept {
    if (!always_ && !verbose()) return;
    if (said_.exchange(true, std::memory_order_relaxed)) return;
    std::fprintf(stderr,
                 "optiml: %s: a launch of size %.17g (%s) lies outside the sizes it was tuned at "
                 "on %s (%.17g to %.17g); it runs the variant of the nearest tuned size (add the "
                 "size to the spec's \"problems\" to tune it)\n",
                 launcher_, size, axis_, arch_, smallest_, largest_);
}

}  // namespace optiml::rt
