#include "driver/compile/nvcc_compiler.h"

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string_view>

#include "driver/base/read_file.h"
#include "driver/base/run_process.h"
#include "driver/base/scratch_dir.h"
#include "driver/compile/detail/cubin_symbols.h"
#include "driver/compile/kernel_symbol.h"
#include "driver/compile/nvrtc_compiler.h"

namespace optiml::compile {
namespace fs = std::filesystem;
namespace {

// NVRTC options nvcc has no counterpart for (NVRTC's own front-end switches).
constexpr std::array<std::string_view, 8> kNvrtcOnly = {"-default-device",
                                                        "--device-as-default-execution-space",
                                                        "--minimal",
                                                        "--no-source-include",
                                                        "--builtin-move-forward",
                                                        "--builtin-initializer-list",
                                                        "--device-int128",
                                                        "--fdevice-time-trace"};

CompileResult nvcc_failure(std::string message) {
    CompileResult result;
    result.log = std::move(message);
    return result;
}

// The text nvcc compiles: diagnostics and line info name the original file; a template kernel
// is instantiated at the name expression (host code taking its address makes nvcc emit it).
std::string scratch_text(const CompileRequest& request, const std::string& source_text) {
    std::string text = "#line 1 \"" + request.source_name + "\"\n" + source_text;
    if (request.name_expression.find('<') != std::string::npos)
        text +=
            "\n#line 1 \"<optiml: name expression>\"\nnamespace { [[maybe_unused]] auto* const "
            "optiml_name_expression_ = &" +
            request.name_expression + "; }\n";
    return text;
}

}  // namespace

std::string nvcc_path() {
    for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
        const char* root = std::getenv(variable);
        if (!root || !*root) continue;
        const fs::path candidate = fs::path(root) / "bin" / "nvcc";
        if (fs::exists(candidate)) return candidate.string();
    }
    return OPTIML_NVCC;
}

std::string nvcc_version() {
    static const std::string version = [] {
        const base::ScratchDir scratch("optiml-nvcc");
        if (scratch.path().empty()) return std::string();
        const base::ProcessResult run =
            base::run_process({nvcc_path(), "--version"}, scratch.path() / "log");
        std::smatch match;
        static const std::regex release(R"(, V([0-9][0-9.]*))");
        if (!run.ok() || !std::regex_search(run.log, match, release)) return std::string();
        return match[1].str();
    }();
    return version;
}

std::optional<std::string> nvcc_option(const std::string& nvrtc_option) {
    for (const std::string_view only : kNvrtcOnly)
        if (nvrtc_option.starts_with(only)) return std::nullopt;
    if (nvrtc_option == "--dlink-time-opt") return "-dlto";
    return nvrtc_option;  // the same spelling (--use_fast_math, --maxrregcount=, -std=, ...)
}

std::vector<std::string> nvcc_arguments(const CompileRequest& request, const std::string& source,
                                        const std::string& output) {
    std::vector<std::string> arguments{nvcc_path(),
                                       request.output == Output::Cubin ? "-cubin" : "-ptx"};
    // implicit_options() spells -arch, -lineinfo and -D as nvcc does.
    for (std::string& option : implicit_options(request)) arguments.push_back(std::move(option));
    for (const auto& dir : request.include_dirs) arguments.push_back("-I" + dir.string());
    arguments.insert(arguments.end(), request.build_options.begin(), request.build_options.end());
    // PTX (for newer GPUs, JIT-compiled whole by the driver) needs no device link.
    if (request.relocatable && request.output == Output::Cubin) arguments.push_back("-rdc=true");
    for (const std::string& option : request.options)
        if (auto mapped = nvcc_option(option)) arguments.push_back(std::move(*mapped));
    arguments.insert(arguments.end(), {"-o", output, source});
    return arguments;
}

std::vector<std::string> nvcc_device_link_arguments(const CompileRequest& request,
                                                    const std::string& relocatable,
                                                    const std::string& output) {
    std::vector<std::string> arguments{nvcc_path(), "-dlink", "-cubin",
                                       "-arch=sm_" + std::to_string(request.arch)};
    // The link-time options of the build (-Xnvlink, -dlto) reach the device link as they do in
    // the program's.
    for (const std::string& option : request.build_options)
        if (option.starts_with("-Xnvlink") || option.starts_with("--nvlink-options") ||
            option == "-dlto" || option == "--dlink-time-opt")
            arguments.push_back(option);
    arguments.insert(arguments.end(), {"-o", output, relocatable});
    return arguments;
}

namespace {

// One nvcc run (and device link) over `source_text`.
CompileResult compile_text(const CompileRequest& request, const std::string& source_text) {
    const base::ScratchDir scratch("optiml-nvcc");
    if (scratch.path().empty()) return nvcc_failure("cannot create a scratch folder for nvcc\n");
    const fs::path source = scratch.path() / fs::path(request.source_name).filename();
    const fs::path output = scratch.path() / "kernel.out";
    std::ofstream(source, std::ios::binary) << scratch_text(request, source_text);

    const bool link = request.relocatable && request.output == Output::Cubin;
    const fs::path compiled = link ? scratch.path() / "relocatable.cubin" : output;
    const std::vector<std::string> arguments = nvcc_arguments(request, source, compiled);
    base::ProcessResult run = base::run_process(arguments, scratch.path() / "nvcc.log");
    CompileResult result;
    result.log = run.log;
    if (!run.ok()) {
        if (!run.started) result.log += "\n(nvcc: " + base::command_line(arguments) + ")\n";
        return result;
    }
    if (link) {  // -rdc=true: the relocatable CUBIN linked alone, as the program links its own
        const std::vector<std::string> dlink =
            nvcc_device_link_arguments(request, compiled.string(), output.string());
        run = base::run_process(dlink, scratch.path() / "nvlink.log");
        result.log += run.log;
        if (!run.ok()) {
            result.log += "\n(device link: " + base::command_line(dlink) + ")\n";
            return result;
        }
    }
    result.binary = base::read_file(output);
    if (result.binary.empty()) return nvcc_failure(result.log + "nvcc produced no output\n");
    const std::vector<std::string> symbols = request.output == Output::Cubin
                                                 ? cubin_entry_symbols(result.binary)
                                                 : ptx_entry_symbols(result.binary);
    const auto lowered = find_kernel_symbol(symbols, request.name_expression);
    if (!lowered) {
        result.log += "kernel '" + request.name_expression +
                      "' not found among the kernels nvcc compiled (" +
                      std::to_string(symbols.size()) + "); check the spec's \"kernel\" field\n";
        result.binary.clear();
        return result;
    }
    result.lowered_name = *lowered;
    result.ok = true;
    return result;
}

}  // namespace

CompileResult compile_with_nvcc(const CompileRequest& request) {
    for (const std::string& option : request.options)
        if (!nvcc_option(option))
            return nvcc_failure(
                "the option \"" + option +
                "\" is NVRTC's only; nvcc has no equivalent: drop it from the spec's "
                "nvrtc_options or compile with \"compiler\": \"nvrtc\"\n");
    CompileResult result = compile_text(request, request.source_text);
    // The device code alone needs a header or host function this variant's macros brought in.
    if (!result.ok && !request.whole_file_text.empty())
        result = compile_text(request, request.whole_file_text);
    return result;
}

}  // namespace optiml::compile
