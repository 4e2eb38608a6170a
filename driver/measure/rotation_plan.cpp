#include "driver/measure/detail/rotation_plan.h"

#include <limits>

namespace optiml::measure {

std::size_t rotation_copy_bytes(const std::vector<std::size_t>& buffer_bytes) {
    std::size_t total = 0;
    for (const std::size_t bytes : buffer_bytes)
        total += (bytes + kRotationAlignment - 1) / kRotationAlignment * kRotationAlignment;
    return total;
}

int rotation_copies(std::size_t copy_bytes, std::size_t l2_bytes, std::size_t free_bytes) {
    if (copy_bytes == 0) return 0;
    const std::size_t others = (2 * l2_bytes + copy_bytes - 1) / copy_bytes;  // ceil(2 L2 / copy)
    const std::size_t copies = others + 1 < 2 ? 2 : others + 1;
    // Half of what is free stays free: the worker's other buffers, the module, the driver.
    if (copies > free_bytes / 2 / copy_bytes) return 0;
    if (copies > static_cast<std::size_t>(std::numeric_limits<int>::max())) return 0;
    return static_cast<int>(copies);
}

}  // namespace optiml::measure
