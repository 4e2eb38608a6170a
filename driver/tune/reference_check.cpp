#include "driver/tune/detail/reference_check.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <regex>
#include <stdexcept>

#include "driver/base/read_file.h"
#include "driver/tune/candidate_evaluator.h"
#include "driver/tune/compare_build.h"
#include "driver/tune/measuring_session.h"

namespace optiml::tune {
namespace {

constexpr const char* kWrapper = "optiml_reference";

std::vector<std::string> names_matching(const std::string& text, const std::regex& pattern) {
    std::vector<std::string> names;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern);
         it != std::sregex_iterator(); ++it)
        if (std::find(names.begin(), names.end(), (*it)[1].str()) == names.end())
            names.push_back((*it)[1].str());
    return names;
}

std::string listed(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
    return out;
}

// The C++ function inside a kernel of the spec's arguments; only the first thread calls it, so
// any geometry runs it once.
std::string wrapped(const spec::Spec& spec, const Reference& reference) {
    std::string parameters;
    std::string arguments;
    for (const spec::Argument& argument : spec.arguments) {
        parameters += (parameters.empty() ? "" : ", ") + spec::cpp_type(argument.type) +
                      (argument.is_pointer ? "* " : " ") + argument.name;
        arguments += (arguments.empty() ? "" : ", ") + argument.name;
    }
    return reference.text + "\n\nextern \"C\" __global__ void " + kWrapper + "(" + parameters +
           ") {\n    if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0 && threadIdx.x == 0 "
           "&& threadIdx.y == 0 && threadIdx.z == 0)\n        " +
           reference.entry + "(" + arguments + ");\n}\n";
}

}  // namespace

Reference read_reference(const std::filesystem::path& file, const std::string& entry) {
    Reference reference{file, base::read_file(file), entry, false};
    const std::vector<std::string> kernels = names_matching(
        reference.text, std::regex(R"(__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+)"
                                   R"((?:__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_]\w*)\s*\()"));
    reference.is_kernel = !kernels.empty();
    if (!entry.empty()) {
        reference.is_kernel = std::find(kernels.begin(), kernels.end(), entry) != kernels.end();
        return reference;
    }
    const std::vector<std::string> candidates =
        reference.is_kernel
            ? kernels
            : names_matching(reference.text,
                             std::regex(R"((?:^|\n)[ \t]*(?:static\s+|inline\s+)*void\s+)"
                                        R"(([A-Za-z_]\w*)\s*\()"));
    if (candidates.size() != 1)
        throw std::runtime_error(
            file.string() + ": " +
            (candidates.empty()
                 ? std::string("no __global__ kernel and no function returning void to run")
                 : "several " + std::string(reference.is_kernel ? "kernels" : "functions") + " (" +
                       listed(candidates) + ")") +
            "; name the one the kernel must reproduce with --reference-entry");
    reference.entry = candidates.front();
    return reference;
}

compile::CompileRequest reference_compile_request(const spec::Spec& spec,
                                                  const Reference& reference, int arch) {
    compile::CompileRequest request = identity::make_compile_request(
        spec, spec.default_config(), arch, compile::Output::Cubin, compile::Backend::Nvrtc);
    request.source_name = reference.file.filename().string();
    if (reference.is_kernel) {
        request.source_text = reference.text;
        request.name_expression = reference.entry;
    } else {
        request.source_text = wrapped(spec, reference);
        request.name_expression = kWrapper;
        request.options.push_back("-default-device");
    }
    return request;
}

ReferenceVerdict verify_against_reference(const spec::Spec& spec, const Reference& reference,
                                          const measure::DeviceInfo& device,
                                          const std::string& host_compiler) {
    const int arch = device.arch;
    const search::Config defaults = spec.default_config();
    const compile::CompileResult compiled_reference =
        compile::compile(reference_compile_request(spec, reference, arch));
    if (!compiled_reference.ok)
        return {false, "reference_error",
                "the reference " + reference.file.filename().string() + " (" + reference.entry +
                    ") does not compile as device code with NVRTC:\n" + compiled_reference.log};
    // Fresh inputs, as a tuning's; the kernel at its defaults is the session's original.
    std::unique_ptr<MeasuringSession> session;
    try {
        session = std::make_unique<MeasuringSession>(
            spec, device, SessionSetup{host_compiler, true, true, &compiled_reference});
    } catch (const SessionError& e) {
        if (e.step == SessionError::Step::Original) return {false, "compile_error", e.compile_log};
        return {false, "reference_error", e.what()};
    }
    const measure::LaunchSpec& kernel_launch = session->original_launch();
    const auto timeout = std::chrono::minutes(2);
    measure::Measurement verdict = session->worker().verify(0, kernel_launch, timeout);
    for (std::size_t i = 0; verdict.ok && i < spec.check.extra_sizes.size(); ++i) {
        measure::LaunchSpec at_size = make_launch(spec, defaults, &spec.check.extra_sizes[i]);
        at_size.image_path = kernel_launch.image_path;
        at_size.symbol = kernel_launch.symbol;
        verdict = session->worker().verify(static_cast<int>(i + 1), at_size, timeout);
    }
    return {verdict.ok, verdict.ok ? "ok" : verdict.status, verdict.ok ? "" : verdict.message};
}

}  // namespace optiml::tune
