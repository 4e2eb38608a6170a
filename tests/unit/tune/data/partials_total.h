// A local header of the comparison function: part of the cache key and of the depfile.
#pragma once

#include <cstddef>

inline double partials_total(const void* data, std::size_t count) {
    const auto* values = static_cast<const float*>(data);
    double total = 0.0;
    for (std::size_t i = 0; i < count; ++i) total += values[i];
    return total;
}
