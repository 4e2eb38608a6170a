// The H200 demonstration's fixture (tests/data/llm/matmul_tiled_answer.md, a model's answer
// written for tests/gpu/llm_matmul.sh) passes the guardrails against the matmul example and
// compiles with NVRTC for sm_90 at the parameters it asks for and at other points of the space
// (the tree may move them from its node). Its results are checked on the GPU by that script.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "driver/compile/nvrtc_compiler.h"
#include "driver/llm/guardrail.h"
#include "driver/llm/response_parse.h"

namespace optiml::llm {
namespace {

const std::filesystem::path kRoot = OPTIML_SOURCE_DIR;

std::string read(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(MatmulFixture, PassesTheGuardrailsAndCompilesAcrossTheSpace) {
    const Answer answer = parse_answer(read(kRoot / "tests/data/llm/matmul_tiled_answer.md"));
    const std::filesystem::path kernels = kRoot / "examples/matmul/kernels";
    const std::string original = read(kernels / "matmul.cu");
    const GuardedKernel kernel = guard_answer(original, "matmul", answer);
    EXPECT_EQ(answer.changes.size(), 3u);
    EXPECT_EQ(answer.parameters.at("tile_size_x"), 8);
    EXPECT_EQ(kernel.first_line, 33);
    EXPECT_EQ(kernel.text.substr(0, kernel.text.find("// A ROWS x COLS")),
              original.substr(0, original.find("__global__")));

    std::vector<std::map<std::string, std::int64_t>> configs = {
        {answer.parameters.begin(), answer.parameters.end()},
        {{"block_size_x", 32},
         {"block_size_y", 8},
         {"tile_size_x", 4},
         {"tile_size_y", 4},
         {"use_shared_mem", 1},
         {"tile_k", 16}},
        {{"block_size_x", 16},
         {"block_size_y", 8},
         {"tile_size_x", 2},
         {"tile_size_y", 1},
         {"use_shared_mem", 0},
         {"tile_k", 16}},
        {{"block_size_x", 32},
         {"block_size_y", 16},
         {"tile_size_x", 8},
         {"tile_size_y", 8},
         {"use_shared_mem", 1},
         {"tile_k", 16}}};
    for (const auto& config : configs) {
        compile::CompileRequest request;
        request.source_text = kernel.text;
        request.source_name = "matmul.cu";
        request.name_expression = "matmul";
        request.include_dirs = {kernels};
        request.defines = config;
        request.arch = 90;
        const compile::CompileResult result = compile::compile_with_nvrtc(request);
        EXPECT_TRUE(result.ok) << result.log;
        EXPECT_FALSE(result.binary.empty());
    }
}

}  // namespace
}  // namespace optiml::llm
