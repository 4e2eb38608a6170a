// NVRTC needs no GPU: these compile real kernels on any machine with the toolkit.
#include "driver/compile/nvrtc_compiler.h"

#include <gtest/gtest.h>

namespace optiml::compile {
namespace {

const char* kTunable = R"(
#ifndef block_size_x
#define block_size_x 256
#endif
template <typename T>
__global__ void scale(int n, T a, T* x) {
    int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n) x[i] *= a;
}
template __global__ void scale<float>(int, float, float*);
__global__ void plain(float* x) { x[threadIdx.x] = block_size_x; }
)";

CompileRequest request(const std::string& name) {
    CompileRequest r;
    r.source_text = kTunable;
    r.source_name = "scale.cu";
    r.name_expression = name;
    r.arch = 90;
    return r;
}

TEST(Nvrtc, CompilesACubinForTheRequestedArchitecture) {
    const CompileResult result = compile(request("plain"));
    ASSERT_TRUE(result.ok) << result.log;
    ASSERT_GE(result.binary.size(), 4u);
    EXPECT_EQ(result.binary.substr(0, 4),
              "\x7f"
              "ELF");
    EXPECT_EQ(result.lowered_name,
              "_Z5plainPf");  // not extern "C": found through its name expression
}

// Kernels include the toolkit's headers as nvcc finds them (cuda-samples' transpose does).
TEST(Nvrtc, FindsTheToolkitsHeadersSuchAsCooperativeGroups) {
    CompileRequest r = request("synced");
    r.source_text = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void synced(float* x) {
    cg::thread_block block = cg::this_thread_block();
    x[threadIdx.x] = 1.0f;
    cg::sync(block);
}
)";
    const CompileResult result = compile(r);
    EXPECT_TRUE(result.ok) << result.log;
}

TEST(Nvrtc, FindsTemplateInstancesThroughNameExpressions) {
    const CompileResult result = compile(request("scale<float>"));
    ASSERT_TRUE(result.ok) << result.log;
    EXPECT_EQ(result.lowered_name, "_Z5scaleIfEviT_PS0_");
}

TEST(Nvrtc, PtxTargetsTheVirtualArchitectureAndDefinesReachTheKernel) {
    CompileRequest r = request("plain");
    r.output = Output::Ptx;
    r.defines = {{"block_size_x", 123}};
    const CompileResult result = compile(r);
    ASSERT_TRUE(result.ok) << result.log;
    EXPECT_NE(result.binary.find(".target sm_90"), std::string::npos);
    EXPECT_NE(result.binary.find("1123418112"),
              std::string::npos)  // 123.0f, stored as its bit pattern
        << "the -D value did not replace the #ifndef default";
}

TEST(Nvrtc, ReportsCompileErrorsWithTheLog) {
    CompileRequest r = request("plain");
    r.source_text = "__global__ void plain(float* x) { x[0] = undefined_name; }";
    const CompileResult result = compile(r);
    EXPECT_FALSE(result.ok);
    EXPECT_NE(result.log.find("undefined_name"), std::string::npos) << result.log;
}

TEST(Nvrtc, AMissingKernelNameIsAnErrorThatNamesTheSpecField) {
    const CompileResult result = compile(request("no_such_kernel"));
    EXPECT_FALSE(result.ok);
    EXPECT_NE(result.log.find("no_such_kernel"), std::string::npos) << result.log;
}

TEST(Nvrtc, CompilesManyInParallelInRequestOrder) {
    std::vector<CompileRequest> requests;
    for (int value : {1, 2, 3, 4, 5}) {
        CompileRequest r = request("plain");
        r.output = Output::Ptx;
        r.defines = {{"block_size_x", value}};
        requests.push_back(r);
    }
    requests[2].source_text = "syntax error";
    const auto results = compile_all(requests, 3);
    ASSERT_EQ(results.size(), 5u);
    EXPECT_TRUE(results[0].ok && results[1].ok && results[3].ok && results[4].ok);
    EXPECT_FALSE(results[2].ok);
    EXPECT_NE(results[4].binary.find("1084227584"), std::string::npos);  // 5.0f
}

TEST(Nvrtc, ReportsItsVersion) {
    EXPECT_EQ(nvrtc_version().substr(0, 3), "13.");
}

}  // namespace
}  // namespace optiml::compile
