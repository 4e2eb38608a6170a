// The reference of `optiml synth` and `optiml tune --reference`, as far as a machine without a GPU
// can check it: which function or kernel of the file runs, and that NVRTC compiles it for the
// spec's arguments (a C++ function inside its one-thread kernel). The GPU verdicts are
// tests/gpu/llm_synth.sh's.
#include "driver/tune/detail/reference_check.h"

#include <gtest/gtest.h>

#include <fstream>

#include "driver/compile/compile_request.h"

namespace optiml::tune {
namespace {
namespace fs = std::filesystem;

const char* const kKernel =
    R"cu(extern "C" __global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
})cu";

const char* const kSpec = R"json({
  "name": "relu", "source": "relu.cu", "kernel": "relu",
  "arguments": [
    {"name": "in", "type": "float32", "pointer": true, "count": "n", "role": "input",
     "fill": {"kind": "uniform", "min": -1, "max": 1, "seed": 1}},
    {"name": "out", "type": "float32", "pointer": true, "count": "n", "role": "output"},
    {"name": "n", "type": "int32", "value": 4096}],
  "launch": {"block": ["block_size_x"], "grid": ["ceil_div(n, block_size_x)"]},
  "parameters": [{"name": "block_size_x", "values": [128, 256], "default": 128}]
})json";

class ReferenceCheckTest : public ::testing::Test {
  public:
    compile::CompileResult compiled(const Reference& reference) const {
        return compile::compile(reference_compile_request(spec_, reference, 90));
    }

  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("optiml-reference-test-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        write("relu.cu", kKernel);
        spec_ = spec::load_spec(write("relu.optiml.json", kSpec));
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path write(const std::string& name, const std::string& text) const {
        std::ofstream(dir_ / name) << text;
        return dir_ / name;
    }
    fs::path dir_;
    spec::Spec spec_;
};

// The file's one candidate is found, of the right kind, and compiles for the spec's arguments.
void expect_found_and_compiled(const ReferenceCheckTest& test, const Reference& reference,
                               bool is_kernel, const std::string& entry) {
    EXPECT_EQ(reference.is_kernel, is_kernel);
    EXPECT_EQ(reference.entry, entry);
    const compile::CompileResult result = test.compiled(reference);
    EXPECT_TRUE(result.ok) << result.log;
    EXPECT_FALSE(result.binary.empty());
}

TEST_F(ReferenceCheckTest, ACppFunctionIsFoundAndCompilesInsideItsKernel) {
    expect_found_and_compiled(
        *this,
        read_reference(write("ref.cpp",
                             "static float clamp0(float v) { return v > 0.0f ? v : 0.0f; }\n"
                             "void relu_ref(const float* in, float* out, int n) {\n"
                             "    for (int i = 0; i < n; ++i) out[i] = clamp0(in[i]);\n}\n")),
        false, "relu_ref");
}

TEST_F(ReferenceCheckTest, AKernelIsRunAsItIs) {
    expect_found_and_compiled(
        *this,
        read_reference(write("ref.cu",
                             "__device__ void helper() {}\n"
                             "extern \"C\" __global__ void __launch_bounds__(256) relu_naive(const "
                             "float* in, float* out, int n) {\n"
                             "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += "
                             "gridDim.x * blockDim.x) out[i] = in[i] > 0.0f ? in[i] : 0.0f;\n}\n")),
        true, "relu_naive");
}

TEST_F(ReferenceCheckTest, SeveralCandidatesNeedTheEntryNamed) {
    const fs::path file = write("two.cpp",
                                "void a(const float* in, float* out, int n) {}\n"
                                "void b(const float* in, float* out, int n) {}\n");
    try {
        read_reference(file);
        FAIL() << "expected an error";
    } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(file.string()), std::string::npos) << message;
        EXPECT_NE(message.find("several functions (a, b)"), std::string::npos) << message;
        EXPECT_NE(message.find("--reference-entry"), std::string::npos) << message;
    }
    EXPECT_EQ(read_reference(file, "b").entry, "b");
    EXPECT_THROW(read_reference(write("none.cpp", "int f(int x) { return x; }\n")),
                 std::runtime_error);
}

// A reference whose parameters are not the spec's arguments cannot be called with them:
// NVRTC says so, and the verdict would be a reference_error, never a pass.
TEST_F(ReferenceCheckTest, AReferenceOfOtherParametersDoesNotCompile) {
    const Reference reference =
        read_reference(write("ref.cpp", "void relu_ref(const float* in, float* out) {}\n"));
    const compile::CompileResult result = compiled(reference);
    EXPECT_FALSE(result.ok);
    EXPECT_NE(result.log.find("relu_ref"), std::string::npos) << result.log;
}

}  // namespace
}  // namespace optiml::tune
