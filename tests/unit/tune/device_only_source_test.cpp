// nvcc compiles a kernel among host code from its device code alone only where the original
// compiles to the same device code that way, and NVRTC compiles it first only where NVRTC gives
// nvcc's kernel code (no GPU needed: nvcc and NVRTC only).
#include "driver/tune/device_only_source.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "driver/compile/image_cache.h"
#include "driver/compile/nvrtc_compiler.h"

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

// A kernel among host code, its unroll factor in a namespace-scope constant: NVRTC keeps that
// constant as a global of its own (compile::same_kernel_code looks through it).
const std::string kAmongHostCode =
    "#include <vector>\n#include <cstdio>\n#ifndef FACTOR\n#define FACTOR 2.0f\n#endif\n"
    "constexpr int kUnroll = 4;\n" +
    kKernel + "int main() { std::vector<float> v(64); return static_cast<int>(v.size()); }\n";

// compile() of a request NVRTC compiles first: what NVRTC alone makes of its NVRTC text.
compile::CompileResult compiled_by_nvrtc(const compile::CompileRequest& request) {
    const compile::CompileResult result = compile::compile(request);
    EXPECT_TRUE(result.ok) << result.log;
    compile::CompileRequest by_nvrtc = request;
    by_nvrtc.source_text = request.nvrtc_text;
    EXPECT_EQ(result.binary, compile::compile_with_nvrtc(by_nvrtc).binary);
    return result;
}

TEST(DeviceOnlySource, NvrtcCompilesTheVariantsFirstWhereItGivesNvccsKernelCode) {
    const DeviceOnlyPlan plan = device_only_plan(nvcc_request(kAmongHostCode));
    ASSERT_TRUE(plan.used) << plan.why_not;
    EXPECT_TRUE(plan.nvrtc) << plan.nvrtc_why_not;
    compile::CompileRequest variant = nvcc_request(kAmongHostCode);
    variant.defines = {{"FACTOR", 3}};
    use_device_only_text(variant, plan);
    ASSERT_FALSE(variant.nvrtc_text.empty());
    EXPECT_EQ(variant.nvrtc_text.find("#include <cstdio>"), std::string::npos);
    EXPECT_EQ(compiled_by_nvrtc(variant).lowered_name, "_Z5scalePfi");
}

TEST(DeviceOnlySource, NvrtcDoesWithoutTheHostHelperHeadersItCannotOpenOrRejects) {
    // A project's check macros in a header of their own, which reaches <stdlib.h> through
    // another; a host API's declarations (NVRTC rejects __host__ functions); the kernel's device
    // helper in a last header, which NVRTC must keep.
    const std::filesystem::path folder = std::filesystem::path(::testing::TempDir()) / "helpers";
    std::filesystem::create_directories(folder);
    std::ofstream(folder / "check.h") << "#pragma once\n#include \"check_impl.h\"\n"
                                         "#define CHECK(x) do { if (!(x)) exit(1); } while (0)\n";
    std::ofstream(folder / "check_impl.h")
        << "#pragma once\n#include <stdlib.h>\n#include <string.h>\n";
    std::ofstream(folder / "host_api.h")
        << "#pragma once\nextern __host__ int start_timer(void);\n";
    std::ofstream(folder / "twice.h")
        << "#pragma once\n__device__ float twice(float a) { return 2.0f * a; }\n";
    const std::string text =
        "#include <vector>\n#include \"check.h\"\n#include <host_api.h>\n#include \"twice.h\"\n"
        "__global__ void scale(float* x, int n) {\n"
        "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) x[i] = twice(x[i]);\n}\n"
        "int main() { std::vector<float> v(4); CHECK(v.size() == 4); }\n";
    compile::CompileRequest request = nvcc_request(text);
    request.include_dirs = {folder};
    const DeviceOnlyPlan plan = device_only_plan(request);
    ASSERT_TRUE(plan.used) << plan.why_not;
    EXPECT_TRUE(plan.nvrtc) << plan.nvrtc_why_not;
    EXPECT_EQ(plan.nvrtc_headers, (std::vector<std::string>{"check.h", "host_api.h"}));
    use_device_only_text(request, plan);
    EXPECT_NE(request.nvrtc_text.find("#include \"twice.h\""), std::string::npos);
    EXPECT_EQ(request.nvrtc_text.find("check.h"), std::string::npos);
    EXPECT_TRUE(compiled_by_nvrtc(request).ok);
}

TEST(DeviceOnlySource, NvccCompilesWhatNvrtcCannot) {
    compile::CompileRequest request = nvcc_request(
        "#include <cstdio>\n__global__ void scale(float* x, int n) { if (n < 0) printf(\"%d\", n); "
        "}\n");
    request.nvrtc_text = request.source_text;  // NVRTC has no <cstdio>
    EXPECT_FALSE(compile::compile_with_nvrtc(request).ok);
    const compile::CompileResult result = compile::compile(request);
    EXPECT_TRUE(result.ok) << result.log;
    compile::CompileRequest nvcc_only = request;
    nvcc_only.nvrtc_text.clear();
    EXPECT_NE(compile::image_key(request, ""), compile::image_key(nvcc_only, ""));
}

TEST(DeviceOnlySource, TargetFlagsNvrtcDoesNotReproduceAndTheSwitchKeepNvcc) {
    compile::CompileRequest fast_math = nvcc_request(kAmongHostCode);
    fast_math.build_options = {"--use_fast_math"};
    const DeviceOnlyPlan flagged = device_only_plan(fast_math);
    EXPECT_TRUE(flagged.used) << flagged.why_not;
    EXPECT_FALSE(flagged.nvrtc);
    EXPECT_EQ(flagged.nvrtc_why_not, "the target compiles with --use_fast_math");
    ::setenv("OPTIML_NVCC_NVRTC", "0", 1);
    const DeviceOnlyPlan off = device_only_plan(nvcc_request(kAmongHostCode + "// switched\n"));
    ::unsetenv("OPTIML_NVCC_NVRTC");
    EXPECT_TRUE(off.used) << off.why_not;
    EXPECT_FALSE(off.nvrtc);
    compile::CompileRequest variant = nvcc_request(kAmongHostCode + "// switched\n");
    use_device_only_text(variant, off);
    EXPECT_TRUE(variant.nvrtc_text.empty());
}

}  // namespace
}  // namespace optiml::tune
