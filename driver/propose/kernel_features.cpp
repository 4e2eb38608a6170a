#include "driver/propose/detail/kernel_features.h"

#include <set>

#include "driver/source/cuda_tokens.h"
#include "driver/source/device_code.h"
#include "driver/source/kernel_text.h"
#include "driver/source/rewrite_error.h"

namespace optiml::propose {
namespace {

// CUDA's math functions whose fast-math forms differ (single and double precision).
const std::set<std::string_view>& math_functions() {
    static const std::set<std::string_view> names = {
        "expf",  "exp2f", "exp10f",  "logf",  "log2f", "log10f", "powf", "sqrtf",  "sinf",
        "cosf",  "tanf",  "sincosf", "tanhf", "erff",  "exp",    "exp2", "log",    "log2",
        "log10", "pow",   "sqrt",    "sin",   "cos",   "tan",    "tanh", "sincos", "erf"};
    return names;
}

}  // namespace

KernelFeatures kernel_features(std::string_view source, std::string_view kernel) {
    KernelFeatures features;
    source::KernelText text;
    try {
        text = source::find_kernel(source, kernel);
    } catch (const source::RewriteError&) {
        return features;
    }
    features.found = true;
    features.loops = static_cast<int>(text.loops.size());
    // Host functions (main() dividing its timings) are not compiled with the kernel's options.
    const std::string device = source::device_relevant_text(source, source::seen_macros({source}));
    for (const source::Token& token : source::code_tokens(device)) {
        const std::string_view spelling =
            std::string_view(device).substr(token.begin, token.end - token.begin);
        if (token.kind == source::TokenKind::Identifier && math_functions().contains(spelling))
            features.float_math = true;
        if (token.kind == source::TokenKind::Punctuator && (spelling == "/" || spelling == "/="))
            features.float_division = true;
    }
    return features;
}

}  // namespace optiml::propose
