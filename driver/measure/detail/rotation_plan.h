// How many copies of a problem's argument buffers timed runs rotate through when the spec asks
// for "cold_cache": "rotate". Run r uses copy r mod N, so between two runs on one copy the other
// N - 1 copies pass through L2; they must hold at least twice its size for the copy to be gone
// from it again. Pure arithmetic, tested without a GPU.
#pragma once

#include <cstddef>
#include <vector>

namespace optiml::measure {

// Every buffer of a copy starts at a multiple of this (what cuMemAlloc guarantees).
inline constexpr std::size_t kRotationAlignment = 256;

// One copy's bytes: every pointer argument's buffer (0 for scalars), each rounded up to the
// alignment.
std::size_t rotation_copy_bytes(const std::vector<std::size_t>& buffer_bytes);

// The number of copies: at least 2, and enough that N - 1 copies hold 2 x `l2_bytes`; 0 when
// they would take more than half of `free_bytes` (the caller then flushes L2 instead).
int rotation_copies(std::size_t copy_bytes, std::size_t l2_bytes, std::size_t free_bytes);

}  // namespace optiml::measure
