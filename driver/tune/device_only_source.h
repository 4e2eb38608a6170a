// nvcc parses a variant's whole file for every variant, its host code and host-only headers
// (<iostream>, <vector>, <random>) too: most of its time on a small kernel among host code. Where
// the original configuration compiled from its device code alone (source::device_only_text)
// gives the same device code as compiled from the whole file, every variant is compiled that way,
// with the whole file as the fallback of a variant whose macros need what was left out.
// The device code alone is often what NVRTC compiles too, five times faster than nvcc: where the
// original compiled that way by NVRTC holds the same kernel code as nvcc's (compile::
// same_kernel_code), NVRTC compiles every variant first and nvcc only where NVRTC cannot; NVRTC
// does without the host helper headers it cannot open (nvrtc_includes.h). What is
// timed, verified and shipped is the image of whichever compiled it.
// OPTIML_NVCC_DEVICE_ONLY=0 compiles the whole file always; OPTIML_NVCC_NVRTC=0 keeps NVRTC out.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "driver/compile/compile_request.h"

namespace optiml::tune {

struct DeviceOnlyPlan {
    bool used = false;
    std::size_t host_functions = 0;          // left out of every variant's text
    std::vector<std::string> headers;        // left out, in order
    std::string why_not;                     // when something could be left out but is not
    bool nvrtc = false;                      // NVRTC compiles the device code alone first
    std::vector<std::string> nvrtc_headers;  // left out for NVRTC (nvrtc_includes.h), in order
    std::string nvrtc_why_not;               // when it is used and NVRTC is not
};

// For `original` (an nvcc request of the original configuration): probes once per text, options
// and arch in a process (two nvcc compiles and one NVRTC compile), then answers from memory.
DeviceOnlyPlan device_only_plan(const compile::CompileRequest& original);

// `request` compiles its text's device code alone, its whole text the fallback, when `plan` is
// used; unchanged otherwise.
void use_device_only_text(compile::CompileRequest& request, const DeviceOnlyPlan& plan);

}  // namespace optiml::tune
