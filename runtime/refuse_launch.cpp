// The message of a drop-in launch that would run a kernel on a block not its own.
#include <cstdio>

#include <optiml/runtime.h>

namespace optiml::rt {

cudaError_t refuse_launch(std::atomic<bool>& said, const char* launcher, dim3 block,
                          const char* why) noexcept {
    // Once: a program calls its launcher in a loop, and the first line says all there is.
    if (!said.exchange(true, std::memory_order_relaxed)) {
        std::fprintf(stderr,
                     "optiml: %s: block %ux%ux%u %s; nothing launched "
                     "(cudaErrorInvalidConfiguration)\n",
                     launcher, block.x, block.y, block.z, why);
    }
    return cudaErrorInvalidConfiguration;
}

}  // namespace optiml::rt
