// What a kernel compile takes and gives, whichever compiler runs it: NVRTC (device code only, in
// process) or nvcc (a kernel among host code, as a process). compile() picks by the request's
// backend, so the queue, the image cache and the evaluator need not know which.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace optiml::compile {

enum class Output { Cubin, Ptx };

enum class Backend { Nvrtc, Nvcc };
std::string to_string(Backend backend);  // "nvrtc", "nvcc"
std::optional<Backend> parse_backend(std::string_view name);

struct CompileRequest {
    std::string source_text;
    // nvcc: the whole file, when source_text is its device code alone (tune/device_only_source.h):
    // compiled instead where source_text does not compile.
    std::string whole_file_text;
    // nvcc: NVRTC compiles this text first, where the original compiles to the same kernel code
    // with NVRTC as with nvcc (tune/device_only_source.h); nvcc compiles source_text where NVRTC
    // cannot. Empty: nvcc alone.
    std::string nvrtc_text;
    std::string source_name;  // file name shown in diagnostics and line info
    // "saxpy", "gemm<float, 32>": the kernel to find in the output, parameters already
    // substituted (expand_defines in kernel_symbol.h).
    std::string name_expression;
    std::vector<std::string> options;  // the spec's nvrtc_options
    // The user's target's own device flags (build_flags.h), in nvcc's spelling, before `options`;
    // and whether it compiles relocatable device code (-rdc=true): nvcc then compiles a
    // relocatable CUBIN and device-links it alone, as the program's link does.
    std::vector<std::string> build_options;
    bool relocatable = false;
    std::vector<std::filesystem::path> include_dirs;  // absolute; not part of any cache key
    std::map<std::string, std::int64_t> defines;      // parameters as -DNAME=VALUE
    int arch = 90;                                    // sm_90 / compute_90
    Output output = Output::Cubin;
    bool line_info = true;
    Backend backend = Backend::Nvrtc;
};

struct CompileResult {
    bool ok = false;
    std::string log;           // the compiler's log (warnings too)
    std::string binary;        // CUBIN bytes or PTX text (without the trailing NUL)
    std::string lowered_name;  // the mangled symbol to look the kernel up by
};

// With the request's backend.
CompileResult compile(const CompileRequest& request);

// Compiles many requests on a pool of threads; results in request order.
std::vector<CompileResult> compile_all(const std::vector<CompileRequest>& requests,
                                       unsigned threads = 0);

// The backend's version ("13.0" for NVRTC, "13.0.88" for nvcc): part of every key it compiles for.
std::string compiler_version(Backend backend);

}  // namespace optiml::compile
