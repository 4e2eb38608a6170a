// The exit-time line of UnusedLauncherReport: a tuned kernel no launcher ever launched.
#include <cstdio>

#include <optiml/runtime.h>

namespace optiml::rt {

UnusedLauncherReport::~UnusedLauncherReport() {
    if (!table_.has_tuned_images() || table_.launched()) return;
    if (!always_ && !verbose()) return;
    std::fprintf(stderr,
                 "optiml: %s: this run never launched the kernel through optiml::%s() or "
                 "optiml::%s_launch(), so its tuned variants never ran; a <<<>>> launch left in "
                 "the program runs the original kernel (or the program did not need it this "
                 "run)\n",
                 name_, name_, name_);
}

}  // namespace optiml::rt
