// Which compiler builds a spec's variants: the spec's "compiler", or for "auto" NVRTC when it
// compiles the original (device code only: fast, in process) and nvcc when it does not (a kernel
// among host code, main() and system headers, stays where it is). No GPU needed, so the cache key
// can name the choice; decided once per source text and arch in a process.
#pragma once

#include <string>

#include "driver/compile/compile_request.h"
#include "driver/spec/spec.h"

namespace optiml::tune {

struct CompilerChoice {
    compile::Backend backend = compile::Backend::Nvrtc;
    // For "auto" choosing nvcc: NVRTC's log on the original (why), else empty.
    std::string nvrtc_log;
};

CompilerChoice choose_compiler(const spec::Spec& spec, int arch);

}  // namespace optiml::tune
