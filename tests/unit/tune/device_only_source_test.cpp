// nvcc compiles a kernel among host code from its device code alone only where the original
// compiles to the same device code that way (no GPU needed: nvcc only).
#include "driver/tune/device_only_source.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace optiml::tune {
namespace {

compile::CompileRequest nvcc_request(std::string text) {
    compile::CompileRequest request;
    request.source_text = std::move(text);
    request.source_name = "among_host_code.cu";
    request.name_expression = "scale";
    request.backend = compile::Backend::Nvcc;
    return request;
}

const std::string kKernel =
    "__global__ void scale(float* x, int n) {\n"
    "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) x[i] *= FACTOR;\n"
    "}\n";

TEST(DeviceOnlySource, AKernelAmongHostCodeCompilesAloneToTheSameCode) {
    const std::string text =
        "#include <vector>\n#include <cstdio>\n#ifndef FACTOR\n#define "
        "FACTOR 2.0f\n#endif\n" +
        kKernel +
        "int main() {\n    std::vector<float> v(64);\n    std::printf(\"%f\\n\", "
        "v[0]);\n}\n";
    const DeviceOnlyPlan plan = device_only_plan(nvcc_request(text));
    ASSERT_TRUE(plan.used) << plan.why_not;
    EXPECT_EQ(plan.host_functions, 1u);
    EXPECT_EQ(plan.headers, std::vector<std::string>{"vector"});

    compile::CompileRequest variant = nvcc_request(text);
    variant.defines = {{"FACTOR", 3}};
    use_device_only_text(variant, plan);
    EXPECT_EQ(variant.whole_file_text, text);
    EXPECT_EQ(variant.source_text.find("std::vector"), std::string::npos);
    EXPECT_TRUE(compile::compile(variant).ok);
}

TEST(DeviceOnlySource, HostCodeTheDeviceCodeNeedsKeepsTheWholeFile) {
    // A global's initializer calls a host function: without it the file does not compile.
    const std::string text =
        "#include <string>\nstatic int factor() { return std::string(\"ab\").size(); }\n"
        "static const int kFactor = factor();\n#define FACTOR 2.0f\n" +
        kKernel;
    const DeviceOnlyPlan plan = device_only_plan(nvcc_request(text));
    EXPECT_FALSE(plan.used);
    EXPECT_EQ(plan.why_not, "its device code alone does not compile");
    compile::CompileRequest variant = nvcc_request(text);
    use_device_only_text(variant, plan);
    EXPECT_EQ(variant.source_text, text);
    EXPECT_TRUE(variant.whole_file_text.empty());
}

TEST(DeviceOnlySource, NvrtcRequestsAndTheSwitchLeaveTheFileWhole) {
    const std::string text = "#include <vector>\n#define FACTOR 2.0f\n" + kKernel;
    compile::CompileRequest nvrtc = nvcc_request(text);
    nvrtc.backend = compile::Backend::Nvrtc;
    EXPECT_FALSE(device_only_plan(nvrtc).used);
    ::setenv("OPTIML_NVCC_DEVICE_ONLY", "0", 1);
    const DeviceOnlyPlan off = device_only_plan(nvcc_request(text + "// another text\n"));
    ::unsetenv("OPTIML_NVCC_DEVICE_ONLY");
    EXPECT_FALSE(off.used);
}

}  // namespace
}  // namespace optiml::tune
