#include "driver/tune/device_only_source.h"

#include <cstdlib>
#include <future>
#include <map>
#include <mutex>

#include "driver/compile/build_flags.h"
#include "driver/compile/image_cache.h"
#include "driver/compile/kernel_code.h"
#include "driver/source/device_code.h"
#include "driver/tune/nvrtc_includes.h"

namespace optiml::tune {
namespace {

source::DeviceOnlyText device_only(const std::string& text) {
    return source::device_only_text(text, source::seen_macros({text}));
}

bool switched_off(const char* variable) {
    const char* env = std::getenv(variable);
    return env && std::string(env) == "0";
}

// NVRTC compiles what the target's flags say as nvcc does only for -D, -U and -std.
std::string nvrtc_cannot_take(const compile::CompileRequest& original) {
    if (switched_off("OPTIML_NVCC_NVRTC")) return "OPTIML_NVCC_NVRTC=0";
    if (original.relocatable) return "the target compiles with -rdc=true";
    for (const std::string& option : original.build_options)
        if (!compile::nvrtc_reproduces(option)) return "the target compiles with " + option;
    return "";
}

// Whether two compiles of the original give the same kernel (compile::same_kernel_code).
bool same_kernel(const compile::CompileResult& a, const compile::CompileResult& b) {
    return a.lowered_name == b.lowered_name &&
           compile::same_kernel_code(a.binary, b.binary, a.lowered_name);
}

DeviceOnlyPlan probe(const compile::CompileRequest& original) {
    source::DeviceOnlyText slice = device_only(original.source_text);
    DeviceOnlyPlan plan;
    plan.host_functions = slice.host_functions;
    plan.headers = std::move(slice.headers);
    if (plan.host_functions == 0 && plan.headers.empty()) return plan;  // nothing to leave out
    compile::CompileRequest alone = original;
    alone.source_text = std::move(slice.text);
    alone.whole_file_text.clear();
    alone.output = compile::Output::Cubin;
    compile::CompileRequest whole = alone;
    whole.source_text = original.source_text;
    plan.nvrtc_why_not = nvrtc_cannot_take(original);
    // All at once: the probe holds up the first variant.
    std::future<NvrtcDeviceText> by_nvrtc_text;
    if (plan.nvrtc_why_not.empty())
        by_nvrtc_text = std::async(std::launch::async, compile_for_nvrtc, alone);
    const std::vector<compile::CompileResult> compiled = compile::compile_all({alone, whole});
    const compile::CompileResult& from_alone = compiled[0];
    const compile::CompileResult& from_whole = compiled[1];
    if (!from_whole.ok)
        plan.why_not = "the whole file does not compile";
    else if (!from_alone.ok)
        plan.why_not = "its device code alone does not compile";
    else if (!same_kernel(from_alone, from_whole))
        plan.why_not = "its device code alone compiles to other code";
    else
        plan.used = true;
    if (!by_nvrtc_text.valid()) return plan;
    const NvrtcDeviceText nvrtc = by_nvrtc_text.get();
    if (!plan.used) return plan;
    plan.nvrtc_headers = nvrtc.left_out;
    const compile::CompileResult& by_nvrtc = nvrtc.compiled;
    if (!by_nvrtc.ok)
        plan.nvrtc_why_not = "NVRTC cannot compile it";
    else if (!same_kernel(by_nvrtc, from_alone))
        plan.nvrtc_why_not = "NVRTC compiles it to other kernel code";
    else
        plan.nvrtc = true;
    return plan;
}

}  // namespace

DeviceOnlyPlan device_only_plan(const compile::CompileRequest& original) {
    if (original.backend != compile::Backend::Nvcc || switched_off("OPTIML_NVCC_DEVICE_ONLY"))
        return {};
    static std::mutex mutex;
    static std::map<std::string, DeviceOnlyPlan> plans;  // by the original's image key
    const std::string key = compile::image_key(original, "device-only probe");
    {
        const std::lock_guard lock(mutex);
        if (const auto it = plans.find(key); it != plans.end()) return it->second;
    }
    DeviceOnlyPlan plan = probe(original);
    const std::lock_guard lock(mutex);
    return plans.emplace(key, std::move(plan)).first->second;
}

void use_device_only_text(compile::CompileRequest& request, const DeviceOnlyPlan& plan) {
    if (!plan.used || request.backend != compile::Backend::Nvcc) return;
    request.whole_file_text = request.source_text;
    request.source_text = device_only(request.whole_file_text).text;
    if (plan.nvrtc)
        request.nvrtc_text = source::nvrtc_device_text(request.source_text, plan.nvrtc_headers);
}

}  // namespace optiml::tune
