#include "driver/compile/compile_request.h"

#include <algorithm>
#include <thread>

#include "driver/compile/compile_queue.h"
#include "driver/compile/nvcc_compiler.h"
#include "driver/compile/nvrtc_compiler.h"

namespace optiml::compile {

std::string to_string(Backend backend) {
    return backend == Backend::Nvcc ? "nvcc" : "nvrtc";
}

std::optional<Backend> parse_backend(std::string_view name) {
    if (name == "nvrtc") return Backend::Nvrtc;
    if (name == "nvcc") return Backend::Nvcc;
    return std::nullopt;
}

CompileResult compile(const CompileRequest& request) {
    if (request.backend == Backend::Nvrtc) return compile_with_nvrtc(request);
    if (!request.nvrtc_text.empty()) {
        CompileRequest nvrtc = request;
        nvrtc.source_text = request.nvrtc_text;
        CompileResult fast = compile_with_nvrtc(nvrtc);
        if (fast.ok) return fast;
    }
    return compile_with_nvcc(request);
}

std::vector<CompileResult> compile_all(const std::vector<CompileRequest>& requests,
                                       unsigned threads) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    CompileQueue queue(std::min<unsigned>(threads, static_cast<unsigned>(requests.size())));
    for (const CompileRequest& request : requests) queue.submit(request);
    std::vector<CompileResult> results(requests.size());
    while (auto done = queue.next()) results[done->ticket] = std::move(done->result);
    return results;
}

std::string compiler_version(Backend backend) {
    return backend == Backend::Nvcc ? nvcc_version() : nvrtc_version();
}

}  // namespace optiml::compile
