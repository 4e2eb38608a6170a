#include "driver/tune/device_only_source.h"

#include <cstdlib>
#include <map>
#include <mutex>

#include "driver/compile/image_cache.h"
#include "driver/compile/nvcc_compiler.h"
#include "driver/source/device_code.h"

namespace optiml::tune {
namespace {

source::DeviceOnlyText device_only(const std::string& text) {
    return source::device_only_text(text, source::seen_macros({text}));
}

bool disabled() {
    const char* env = std::getenv("OPTIML_NVCC_DEVICE_ONLY");
    return env && std::string(env) == "0";
}

DeviceOnlyPlan probe(const compile::CompileRequest& original) {
    source::DeviceOnlyText slice = device_only(original.source_text);
    DeviceOnlyPlan plan{false, slice.host_functions, std::move(slice.headers), {}};
    if (plan.host_functions == 0 && plan.headers.empty()) return plan;  // nothing to leave out
    compile::CompileRequest alone = original;
    alone.source_text = std::move(slice.text);
    alone.whole_file_text.clear();
    alone.output = compile::Output::Cubin;
    compile::CompileRequest whole = alone;
    whole.source_text = original.source_text;
    // Both at once: the probe holds up the first variant.
    const std::vector<compile::CompileResult> compiled = compile::compile_all({alone, whole});
    const compile::CompileResult& from_alone = compiled[0];
    const compile::CompileResult& from_whole = compiled[1];
    if (!from_whole.ok)
        plan.why_not = "the whole file does not compile";
    else if (!from_alone.ok)
        plan.why_not = "its device code alone does not compile";
    else if (!compile::same_device_code(from_alone.binary, from_whole.binary))
        plan.why_not = "its device code alone compiles to other code";
    else
        plan.used = true;
    return plan;
}

}  // namespace

DeviceOnlyPlan device_only_plan(const compile::CompileRequest& original) {
    if (original.backend != compile::Backend::Nvcc || disabled()) return {};
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
}

}  // namespace optiml::tune
