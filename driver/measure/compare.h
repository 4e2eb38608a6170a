// Compares a candidate's output buffer with the reference (the original kernel's output).
// Pure host code, so the verification rules are tested in CI without a GPU.
#pragma once

#include <cstddef>
#include <string>

#include "driver/spec/spec.h"

namespace optiml::measure {

struct Tolerance {
    double rtol = 1e-5;
    double atol = 1e-6;
};

struct Comparison {
    std::size_t mismatches = 0;
    std::size_t first_index = 0;  // valid when mismatches > 0
    double first_got = 0.0;
    double first_expected = 0.0;
};

// Floats: |got - expected| <= atol + rtol * |expected|; NaN in `got` never passes (the output
// poison is NaN, so an element the candidate never wrote fails). Integers: exact.
Comparison compare_buffers(spec::ElementType type, const void* got, const void* expected,
                           std::size_t count, const Tolerance& tolerance);

// "y[123]: got 1.5, expected 2 (rtol 1e-05, atol 1e-06); 17 of 1024 elements differ"
std::string describe(const std::string& name, const Comparison& comparison, std::size_t count,
                     const Tolerance& tolerance);

}  // namespace optiml::measure
