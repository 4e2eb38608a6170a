// What NVRTC must do without to compile a kernel's device code alone: the #include lines of host
// helper headers (helper_cuda.h, a project's check macros) that pull in standard headers NVRTC
// cannot open, or declare host functions, which NVRTC rejects (cuda_profiler_api.h). Found by
// compiling: NVRTC names the header its first error is in; the include of the kernel's own text
// that leads there (directly or through the headers it includes) is left out, and NVRTC tries
// again, a few times at most. Whether what then compiles is the kernel nvcc compiles is for the
// caller to check (compile::same_kernel_code).
#pragma once

#include <string>
#include <vector>

#include "driver/compile/compile_request.h"

namespace optiml::tune {

struct NvrtcDeviceText {
    compile::CompileResult compiled;    // NVRTC's last attempt
    std::vector<std::string> left_out;  // beyond source::nvrtc_device_text's own, as written
};

// `device_only`: a request whose source_text is a kernel's device code alone (its include folders
// the original's); compiled by NVRTC whatever its backend.
NvrtcDeviceText compile_for_nvrtc(const compile::CompileRequest& device_only);

}  // namespace optiml::tune
