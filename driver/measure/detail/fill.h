// Host-side input generation: the same spec fill and seed give the same bytes everywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "driver/spec/spec.h"

namespace optiml::measure {

// `count` elements of `type` filled as `fill` says; `seed_offset` shifts the seed so each
// correctness trial can draw fresh inputs. A file fill reads its file (the same bytes whatever
// the offset) and throws std::runtime_error naming the file when it does not hold `count`.
std::string make_filled_buffer(spec::ElementType type, const spec::Fill& fill, std::size_t count,
                               std::uint64_t seed_offset = 0);

// A scalar argument's bytes as the kernel receives them.
std::string scalar_bytes(spec::ElementType type, double value);

}  // namespace optiml::measure
