// What the proposers' preconditions ask of a kernel's text, read through the token editor: does
// its body call floating-point math functions or divide, how many loops does it have. A text in
// which the kernel cannot be found has no features (nothing is offered for it).
#pragma once

#include <string>
#include <string_view>

namespace optiml::propose {

struct KernelFeatures {
    bool found = false;
    bool float_math = false;      // calls expf, sqrtf, sin, pow, ... in its body
    bool float_division = false;  // a `/` or `/=` in its body
    int loops = 0;
};

KernelFeatures kernel_features(std::string_view source, std::string_view kernel);

}  // namespace optiml::propose
