// The first verification step: a variant runs twice on the same inputs, once with its output
// buffers poisoned with 0xFF bytes and once with 0x00 bytes. Elements that differ between the
// runs and hold each run's poison were never written; any other difference is a race.
#pragma once

#include <cstddef>
#include <string>

#include "driver/measure/compare.h"
#include "driver/spec/spec.h"

namespace optiml::measure {

inline constexpr unsigned char kPoisonA = 0xFF;
inline constexpr unsigned char kPoisonB = 0x00;

struct TwoRunVerdict {
    enum class Kind { Same, Unwritten, Nondeterministic };
    Kind kind = Kind::Same;
    std::size_t count = 0;        // elements affected
    std::size_t first_index = 0;  // first one
};

// `deterministic`: the runs must agree bit for bit; otherwise within `tolerance` (floats).
TwoRunVerdict classify_two_runs(spec::ElementType type, const void* run_a, const void* run_b,
                                std::size_t count, bool deterministic, const Tolerance& tolerance);

std::string describe(const std::string& name, const TwoRunVerdict& verdict, std::size_t count);

}  // namespace optiml::measure
