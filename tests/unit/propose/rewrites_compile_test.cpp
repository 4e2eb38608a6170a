// Every rewrite of the repository's real kernels must still compile: NVRTC for sm_90, which
// needs no GPU. The kernels take their parameters as -D (the specs' defaults here).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "driver/compile/nvrtc_compiler.h"
#include "driver/propose/kernel_text.h"
#include "driver/propose/rewrites.h"

namespace optiml::propose {
namespace {

struct RealKernel {
    std::string path;  // relative to the repository
    std::string name;
    std::map<std::string, std::int64_t> defines;
};

std::vector<RealKernel> real_kernels() {
    const std::map<std::string, std::int64_t> matmul_tiles = {
        {"block_size_x", 16}, {"block_size_y", 16}, {"tile_size_x", 1}, {"tile_size_y", 1}};
    std::map<std::string, std::int64_t> shared_matmul = matmul_tiles;
    shared_matmul["use_shared_mem"] = 1;
    return {
        {"tests/data/kernels/convolution/convolution.cu",
         "convolution",
         {{"block_size_x", 16},
          {"block_size_y", 16},
          {"tile_size_x", 1},
          {"tile_size_y", 1},
          {"use_padding", 0},
          {"read_only", 0}}},
        {"tests/data/kernels/reduction/reduction.cu",
         "reduction",
         {{"block_size", 256},
          {"vector_size", 1},
          {"unroll", 1},
          {"use_shuffle", 0},
          {"segments_per_block", 1}}},
        {"tests/data/kernels/transpose/transpose.cu",
         "transpose",
         {{"tile_dim", 32}, {"block_rows", 8}, {"padding", 0}, {"tiles_per_block", 1}}},
        {"tests/data/kernels/tiled_matmul/tiled_matmul.cu", "tiled_matmul", matmul_tiles},
        {"examples/saxpy/kernels/saxpy.cu", "saxpy", {}},
        {"examples/matmul/kernels/matmul.cu", "matmul", {}},
        {"examples/matmul/kernels/matmul.cu", "matmul", shared_matmul},
    };
}

std::string read(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// Every loop unrolled by `factor`, last first so that the earlier loops keep their lines.
std::string all_loops_unrolled(std::string source, const std::string& kernel, int factor) {
    const std::vector<KernelLoop> loops = find_kernel(source, kernel).loops;
    for (auto loop = loops.rbegin(); loop != loops.rend(); ++loop) {
        if (auto next = unroll_loop(source, kernel, loop->line, factor)) source = *next;
    }
    return source;
}

TEST(RealKernelRewrites, AllCompileWithNvrtc) {
    const std::filesystem::path root = OPTIML_SOURCE_DIR;
    std::vector<compile::CompileRequest> requests;
    std::vector<std::string> labels;
    for (const RealKernel& kernel : real_kernels()) {
        const std::string original = read(root / kernel.path);
        std::set<std::string> pointers;
        for (const KernelParameter& p : find_kernel(original, kernel.name).parameters) {
            if (p.is_pointer) pointers.insert(p.name);
        }
        const auto add = [&](const std::string& label, const std::optional<std::string>& text) {
            if (!text) return;
            compile::CompileRequest request;
            request.source_text = *text;
            request.source_name = std::filesystem::path(kernel.path).filename().string();
            request.name_expression = kernel.name;
            request.include_dirs = {(root / kernel.path).parent_path()};
            request.defines = kernel.defines;
            request.arch = 90;
            requests.push_back(request);
            labels.push_back(kernel.path + " " + label);
        };
        const auto restricted = restrict_pointers(original, kernel.name, pointers);
        const auto loaded = load_through_ldg(original, kernel.name, pointers);
        const auto bounded = add_launch_bounds(original, kernel.name, 256, 2);
        add("restrict_pointers", restricted);
        add("load_through_ldg", loaded);
        add("add_launch_bounds", bounded);
        add("unroll every loop 4", all_loops_unrolled(original, kernel.name, 4));
        add("unroll every loop fully", all_loops_unrolled(original, kernel.name, 0));
        std::string composed = restricted.value_or(original);
        composed = load_through_ldg(composed, kernel.name, pointers).value_or(composed);
        composed = all_loops_unrolled(composed, kernel.name, 2);
        composed = add_launch_bounds(composed, kernel.name, 256).value_or(composed);
        add("restrict, ldg, unroll 2, launch bounds", composed);
        // The examples already qualify every pointer; the Kernel Tuner-style kernels do not.
        EXPECT_EQ(restricted.has_value(), kernel.path.starts_with("tests/")) << kernel.path;
        EXPECT_NE(composed, original) << kernel.path;
    }
    const std::vector<compile::CompileResult> results = compile::compile_all(requests, 2);
    ASSERT_EQ(results.size(), requests.size());
    EXPECT_GE(results.size(), 30u);
    for (std::size_t i = 0; i < results.size(); ++i) {
        EXPECT_TRUE(results[i].ok) << labels[i] << ":\n"
                                   << results[i].log << "\n"
                                   << requests[i].source_text;
    }
}

}  // namespace
}  // namespace optiml::propose
