// Milliseconds since a steady-clock start: how the compile queue, the worker's sessions and the
// profiler report how long a step took.
#pragma once

#include <chrono>

namespace optiml::base {

inline double since_ms(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

}  // namespace optiml::base
