// Compiles kernel variants with nvcc: the device code of a .cu file that also holds host code
// (main(), <cstdio>, <cassert>, helper headers), which NVRTC cannot compile, so the kernel stays
// where it is. Same request, same result as NVRTC: nvcc -cubin (or -ptx) on a copy of the text in
// a scratch folder of its own, the request's include folders searched as NVRTC searches them; the
// kernel's mangled name read from the image's symbols (cubin_symbols.h). A template kernel is
// instantiated at the name expression by taking its address after the source, as NVRTC's name
// expressions do; the host code's own launches instantiate only the values it uses.
// Measured here (2 shared cores, sm_90, the small mixed fixture of tests/unit/compile): nvcc
// -cubin 0.7-0.9 s a variant, NVRTC 0.07-0.1 s for a kernel of the same size in device code
// only: nvcc starts several processes and parses the host code too, so "auto" prefers NVRTC.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "driver/compile/compile_request.h"

namespace optiml::compile {

// nvcc whatever the request's backend (compile() picks by it).
CompileResult compile_with_nvcc(const CompileRequest& request);

// $CUDA_HOME/bin/nvcc or $CUDA_PATH/bin/nvcc where present, else the toolkit's OptiML was built
// with.
std::string nvcc_path();

// "13.0.88" (from nvcc --version; empty when nvcc cannot be run), looked up once a process.
std::string nvcc_version();

// The nvcc spelling of one of the spec's nvrtc_options: most are the same for both; an
// NVRTC-only one without an equivalent is nullopt (compile_with_nvcc fails, naming it).
std::optional<std::string> nvcc_option(const std::string& nvrtc_option);

// The command compile_with_nvcc runs for `request`, compiling `source` into `output`.
std::vector<std::string> nvcc_arguments(const CompileRequest& request, const std::string& source,
                                        const std::string& output);

// For a relocatable request (-rdc=true): the device link of its one relocatable CUBIN into the
// executable CUBIN that is timed and shipped (nvcc -dlink -cubin, with the build's -Xnvlink and
// -dlto). A kernel calling device functions of other files does not link alone: the link's
// message names the missing symbol.
std::vector<std::string> nvcc_device_link_arguments(const CompileRequest& request,
                                                    const std::string& relocatable,
                                                    const std::string& output);

}  // namespace optiml::compile
