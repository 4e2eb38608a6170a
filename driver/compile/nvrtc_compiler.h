// Compiles kernel variants with NVRTC: a CUBIN for one exact architecture (what is timed and
// shipped) and, for the winner, PTX of the same source (what newer GPUs JIT). Needs no GPU.
#pragma once

#include <string>
#include <vector>

#include "driver/compile/compile_request.h"

namespace optiml::compile {

// NVRTC whatever the request's backend (compile() picks by it).
CompileResult compile_with_nvrtc(const CompileRequest& request);

// "13.0": NVRTC's version, part of every cache key.
std::string nvrtc_version();

// Options every backend receives besides the spec's own, in order (also hashed into the key):
// the arch, -lineinfo and the defines.
std::vector<std::string> implicit_options(const CompileRequest& request);

}  // namespace optiml::compile
