// Checks the rewrite tests share: that a rewritten text compiles with NVRTC for sm_90 (no GPU
// needed; the tuner verifies every variant's results), and how many lines it has (rewrites keep
// every line in place).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <string>

#include "driver/compile/nvrtc_compiler.h"

namespace optiml::propose::testing {

inline bool compiles(const std::string& text, const std::string& kernel) {
    compile::CompileRequest request;
    request.source_text = text;
    request.source_name = kernel + ".cu";
    request.name_expression = kernel;
    request.arch = 90;
    const compile::CompileResult result = compile::compile(request);
    EXPECT_TRUE(result.ok) << result.log << "\n" << text;
    return result.ok;
}

inline std::ptrdiff_t lines(const std::string& text) {
    return std::count(text.begin(), text.end(), '\n');
}

}  // namespace optiml::propose::testing
