// Compiles kernel variants with NVRTC: a CUBIN for one exact architecture (what is timed and
// shipped) and, for the winner, PTX of the same source (what newer GPUs JIT). Needs no GPU.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace optiml::compile {

enum class Output { Cubin, Ptx };

struct CompileRequest {
    std::string source_text;
    std::string source_name;      // file name shown in diagnostics and line info
    std::string name_expression;  // "saxpy", "gemm<float>": found through NVRTC name expressions
    std::vector<std::string> options;                 // the spec's nvrtc_options
    std::vector<std::filesystem::path> include_dirs;  // absolute; not part of any cache key
    std::map<std::string, std::int64_t> defines;      // parameters as -DNAME=VALUE
    int arch = 90;                                    // sm_90 / compute_90
    Output output = Output::Cubin;
    bool line_info = true;
};

struct CompileResult {
    bool ok = false;
    std::string log;           // NVRTC's log (warnings too)
    std::string binary;        // CUBIN bytes or PTX text (without the trailing NUL)
    std::string lowered_name;  // the mangled symbol to look the kernel up by
};

CompileResult compile(const CompileRequest& request);

// Compiles many requests on a pool of threads; results in request order.
std::vector<CompileResult> compile_all(const std::vector<CompileRequest>& requests,
                                       unsigned threads = 0);

// "13.0": NVRTC's version, part of every cache key.
std::string nvrtc_version();

// Options NVRTC receives besides the spec's own, in order (also hashed into the key).
std::vector<std::string> implicit_options(const CompileRequest& request);

}  // namespace optiml::compile
