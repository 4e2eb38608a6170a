// Which compiler builds a spec's variants: the spec's "compiler", or for "auto" NVRTC when it
// compiles the original (device code only: fast, in process) and reproduces the target's flags
// (spec.target: defines and the language standard), and nvcc when it does not (a kernel among
// host code, main() and system headers, stays where it is; a target with -rdc=true, -G, -Xptxas,
// fast math, ... is compiled as the target compiles it). No GPU needed, so the cache key
// can name the choice; decided once per source text and arch in a process, and, with an image
// cache, answered in later processes by the image of a probe that compiled.
#pragma once

#include <string>

#include "driver/compile/compile_request.h"
#include "driver/compile/image_cache.h"
#include "driver/spec/spec.h"

namespace optiml::identity {

struct CompilerChoice {
    compile::Backend backend = compile::Backend::Nvrtc;
    // For "auto" choosing nvcc: NVRTC's log on the original (why), else empty.
    std::string nvrtc_log;
    // For "auto" choosing nvcc for the target's flags: the first flag NVRTC does not reproduce.
    std::string nvcc_flag;
};

// Where "auto"'s NVRTC compile of the original (the probe) is looked up and kept: an image cache,
// with the digest of the kernel's local headers (kernel_key.h's headers_digest()), so that a
// header edit probes again. Only a probe that compiled is kept (image_cache.h): nvcc's kernels
// probe once per process.
struct ProbeImages {
    compile::ImageCache* images = nullptr;
    std::string headers_digest;
};

// Throws std::invalid_argument for "compiler": "nvrtc" with target flags NVRTC cannot reproduce,
// naming the flag and the fix.
CompilerChoice choose_compiler(const spec::Spec& spec, int arch, const ProbeImages& probes = {});

// The first of the target's flags NVRTC does not compile as nvcc does ("-rdc=true" for separable
// compilation), or empty.
std::string flag_needing_nvcc(const spec::TargetFlags& target);

}  // namespace optiml::identity
