// What the proposers' preconditions ask of a kernel's text, read through the token editor: does
// its code call floating-point math functions or divide (anywhere in the file's device code: the
// device functions it calls are compiled, and compile options apply, with it; not in the bodies
// of host-only functions such as main(), source::device_relevant_text), how many loops does the
// kernel have. A text in which the kernel cannot be found has no features (nothing is offered).
#pragma once

#include <string>
#include <string_view>

namespace optiml::propose {

struct KernelFeatures {
    bool found = false;
    bool float_math = false;      // the file's device code calls expf, sqrtf, sin, pow, ...
    bool float_division = false;  // a `/` or `/=` in the file's device code
    int loops = 0;
};

KernelFeatures kernel_features(std::string_view source, std::string_view kernel);

}  // namespace optiml::propose
