#include "driver/compile/nvrtc_compiler.h"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

#include <nvrtc.h>

namespace optiml::compile {
namespace {

struct ProgramDeleter {
    void operator()(nvrtcProgram program) const { nvrtcDestroyProgram(&program); }
};
using Program = std::unique_ptr<_nvrtcProgram, ProgramDeleter>;

std::string program_log(nvrtcProgram program) {
    std::size_t size = 0;
    if (nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size <= 1) return {};
    std::string log(size, '\0');
    nvrtcGetProgramLog(program, log.data());
    log.resize(size - 1);
    return log;
}

CompileResult failure(std::string message) {
    CompileResult result;
    result.log = std::move(message);
    return result;
}

// $CUDA_HOME/include or $CUDA_PATH/include where set and present, else the toolkit OptiML was
// built with.
std::optional<std::string> find_toolkit_include_dir() {
    for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
        const char* root = std::getenv(variable);
        if (root && *root && std::filesystem::is_directory(std::filesystem::path(root) / "include"))
            return (std::filesystem::path(root) / "include").string();
    }
    if (std::filesystem::is_directory(OPTIML_CUDA_INCLUDE_DIR)) return OPTIML_CUDA_INCLUDE_DIR;
    return std::nullopt;
}

// Looked up once a process: every compile passes the same folders.
const std::vector<std::string>& toolkit_include_options() {
    static const std::vector<std::string> options = [] {
        std::vector<std::string> found;
        if (const auto toolkit = find_toolkit_include_dir()) {
            found.push_back("--include-path=" + *toolkit);
            // CUDA 13 keeps CCCL (<cuda/std/...>, which cooperative groups include) in cccl/.
            if (std::filesystem::is_directory(std::filesystem::path(*toolkit) / "cccl"))
                found.push_back("--include-path=" + *toolkit + "/cccl");
        }
        return found;
    }();
    return options;
}

// NVRTC 12.9 and later keep PTX and cubins they compiled in the CUDA driver's compute cache
// (where a driver is installed) under a key that leaves out code-generation options: on an H100,
// every --use_fast_math, --ftz, --prec-div or --extra-device-vectorization variant came back as
// the image of the first variant compiled with the same source and defines, in this process or
// an earlier one, so a variant was timed and shipped as another. The image cache keys them all.
bool nvrtc_has_own_cache() {
    int major = 0;
    int minor = 0;
    nvrtcVersion(&major, &minor);
    return major > 12 || (major == 12 && minor >= 9);
}

}  // namespace

std::vector<std::string> implicit_options(const CompileRequest& request) {
    const std::string target = request.output == Output::Cubin ? "sm_" : "compute_";
    std::vector<std::string> options{"-arch=" + target + std::to_string(request.arch)};
    if (request.line_info) options.push_back("-lineinfo");
    for (const auto& [name, value] : request.defines)
        options.push_back("-D" + name + "=" + std::to_string(value));
    return options;
}

CompileResult compile_with_nvrtc(const CompileRequest& request) {
    nvrtcProgram raw = nullptr;
    nvrtcResult status = nvrtcCreateProgram(&raw, request.source_text.c_str(),
                                            request.source_name.c_str(), 0, nullptr, nullptr);
    if (status != NVRTC_SUCCESS) return failure(nvrtcGetErrorString(status));
    Program program(raw);

    status = nvrtcAddNameExpression(raw, request.name_expression.c_str());
    if (status != NVRTC_SUCCESS) return failure(nvrtcGetErrorString(status));

    std::vector<std::string> options = implicit_options(request);
    for (const auto& dir : request.include_dirs)
        options.push_back("--include-path=" + dir.string());
    // Last: the toolkit's own headers (<cooperative_groups.h>, <cuda/std/...>), which kernels
    // include as nvcc finds them; NVRTC knows only its built-in ones.
    const std::vector<std::string>& toolkit = toolkit_include_options();
    options.insert(options.end(), toolkit.begin(), toolkit.end());
    options.insert(options.end(), request.build_options.begin(), request.build_options.end());
    options.insert(options.end(), request.options.begin(), request.options.end());
    if (nvrtc_has_own_cache()) options.push_back("--no-cache");
    std::vector<const char*> argv;
    for (const auto& option : options) argv.push_back(option.c_str());

    status = nvrtcCompileProgram(raw, static_cast<int>(argv.size()), argv.data());
    CompileResult result;
    result.log = program_log(raw);
    if (status != NVRTC_SUCCESS) {
        if (result.log.empty()) result.log = nvrtcGetErrorString(status);
        return result;
    }

    const char* lowered = nullptr;
    status = nvrtcGetLoweredName(raw, request.name_expression.c_str(), &lowered);
    if (status != NVRTC_SUCCESS || lowered == nullptr) {
        result.log += "kernel '" + request.name_expression +
                      "' not found in the source; check the spec's \"kernel\" field\n";
        return result;
    }
    result.lowered_name = lowered;

    std::size_t size = 0;
    if (request.output == Output::Cubin) {
        if (nvrtcGetCUBINSize(raw, &size) != NVRTC_SUCCESS || size == 0)
            return failure("NVRTC produced no CUBIN");
        result.binary.resize(size);
        nvrtcGetCUBIN(raw, result.binary.data());
    } else {
        if (nvrtcGetPTXSize(raw, &size) != NVRTC_SUCCESS || size == 0)
            return failure("NVRTC produced no PTX");
        result.binary.resize(size);
        nvrtcGetPTX(raw, result.binary.data());
        while (!result.binary.empty() && result.binary.back() == '\0') result.binary.pop_back();
    }
    result.ok = true;
    return result;
}

std::string nvrtc_version() {
    int major = 0;
    int minor = 0;
    nvrtcVersion(&major, &minor);
    return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace optiml::compile
