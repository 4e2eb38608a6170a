// Process-wide switches of the runtime: the test hook that injects a device architecture, and
// OPTIML_FORCE_ORIGINAL, OPTIML_VERBOSE.
#include <cstdlib>
#include <cstring>

#include <optiml/runtime.h>

namespace optiml::rt {
namespace {

std::atomic<int> injected_arch{0};

}  // namespace

void set_arch_override(int arch) {
    injected_arch.store(arch, std::memory_order_relaxed);
}

int arch_override() {
    return injected_arch.load(std::memory_order_relaxed);
}

bool force_original() {
    // Read once: a launcher's choice must not change under a running program.
    static const bool forced = [] {
        const char* value = std::getenv("OPTIML_FORCE_ORIGINAL");
        return value != nullptr && std::strcmp(value, "1") == 0;
    }();
    return forced;
}

bool verbose() {
    static const bool on = [] {
        const char* value = std::getenv("OPTIML_VERBOSE");
        return value != nullptr && value[0] != '\0' && std::strcmp(value, "0") != 0;
    }();
    return on;
}

}  // namespace optiml::rt
