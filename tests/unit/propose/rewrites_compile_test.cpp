// Every rewrite of the repository's real kernels, alone and composed in several orders, must
// still compile: NVRTC for sm_90, which
// needs no GPU. The kernels take their parameters as -D (the specs' defaults here).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "driver/compile/nvrtc_compiler.h"
#include "driver/propose/detail/rewrites.h"
#include "driver/source/kernel_text.h"

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
        {"tests/data/kernels/naive_transpose/naive_transpose.cu", "naive_transpose", {}},
        {"tests/data/kernels/nbody/nbody.cu", "nbody", {}},
        {"tests/data/kernels/rbf_kernel_matrix/rbf_kernel_matrix.cu", "rbf_kernel_matrix", {}},
        {"tests/data/kernels/mvt/mvt.cu", "mvt_kernel1", {}},
        {"tests/data/kernels/gemm/gemm.cu", "gemm_kernel", {}},
        {"tests/data/kernels/spmv_csr/spmv_csr.cu",
         "spmv_csr",
         {{"block_size_x", 256}, {"use_ldg", 0}}},
        {"tests/data/kernels/spmv_csr/spmv_csr.cu",
         "spmv_csr",
         {{"block_size_x", 256}, {"use_ldg", 1}}},
        {"tests/data/kernels/row_norm/row_norm.cu", "row_norm", {}},
    };
}

std::string read(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

using LoopRewrite =
    std::function<std::optional<std::string>(std::string_view, std::string_view, int)>;

// `rewrite` on every loop it applies to, last first so that the earlier loops keep their lines.
std::string on_every_loop(std::string source, const std::string& kernel,
                          const LoopRewrite& rewrite) {
    const std::vector<source::KernelLoop> loops = source::find_kernel(source, kernel).loops;
    for (auto loop = loops.rbegin(); loop != loops.rend(); ++loop) {
        if (auto next = rewrite(source, kernel, loop->line)) source = *next;
    }
    return source;
}

// Every rewrite as a step from one whole text to the next (no change where it does not apply).
std::map<std::string, std::function<std::string(const std::string&)>> steps(
    const std::string& kernel, const std::set<std::string>& pointers) {
    const auto loops = [kernel](LoopRewrite rewrite) {
        return
            [kernel, rewrite](const std::string& s) { return on_every_loop(s, kernel, rewrite); };
    };
    const auto unroll = [](int factor) {
        return [factor](std::string_view s, std::string_view k, int line) {
            return unroll_loop(s, k, line, factor);
        };
    };
    const auto vectorize = [](int width) {
        return [width](std::string_view s, std::string_view k, int line) {
            return vectorize_loads(s, k, line, width);
        };
    };
    return {
        {"restrict",
         [=](const std::string& s) { return restrict_pointers(s, kernel, pointers).value_or(s); }},
        {"ldg",
         [=](const std::string& s) { return load_through_ldg(s, kernel, pointers).value_or(s); }},
        {"bounds",
         [=](const std::string& s) { return add_launch_bounds(s, kernel, 256, 2).value_or(s); }},
        {"unroll2", loops(unroll(2))},
        {"unroll4", loops(unroll(4))},
        {"unroll", loops(unroll(0))},
        {"vec4", loops(vectorize(4))},
        {"vec2", loops(vectorize(2))},
        {"hoist", loops(hoist_invariant_loads)},
        {"acc", loops(accumulate_in_register)},
        {"rows", [=](const std::string& s) { return cooperate_rows(s, kernel).value_or(s); }},
        {"coarsen", [=](const std::string& s) { return coarsen_items(s, kernel, 4).value_or(s); }},
        {"tile",
         [=](const std::string& s) { return transpose_through_shared(s, kernel).value_or(s); }},
    };
}

TEST(RealKernelRewrites, AllCompileWithNvrtc) {
    const std::filesystem::path root = OPTIML_SOURCE_DIR;
    std::vector<compile::CompileRequest> requests;
    std::vector<std::string> labels;
    for (const RealKernel& kernel : real_kernels()) {
        const std::string original = read(root / kernel.path);
        std::set<std::string> pointers;
        for (const source::KernelParameter& p :
             source::find_kernel(original, kernel.name).parameters) {
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
        // Each rewrite alone, then chains: the loop rewrites in every order, and all of them
        // with the others before and after.
        const auto step = steps(kernel.name, pointers);
        const std::vector<std::vector<std::string>> chains = {
            {"restrict"},
            {"ldg"},
            {"bounds"},
            {"unroll4"},
            {"unroll"},
            {"vec4"},
            {"vec2"},
            {"hoist"},
            {"acc"},
            {"rows"},
            {"acc", "rows"},
            {"acc", "rows", "unroll2", "restrict", "ldg"},
            {"coarsen"},
            {"tile"},
            {"restrict", "ldg", "tile", "bounds"},
            {"restrict", "coarsen", "acc", "vec4", "unroll2"},
            {"acc", "hoist", "vec4"},
            {"acc", "vec4", "hoist"},
            {"hoist", "acc", "vec4"},
            {"hoist", "vec4", "acc"},
            {"vec4", "acc", "hoist"},
            {"vec4", "hoist", "acc"},
            {"restrict", "ldg", "acc", "hoist", "vec4", "unroll2", "bounds"},
            {"unroll4", "ldg", "acc", "vec2", "hoist", "restrict"},
        };
        std::set<std::string> seen = {original};
        std::map<std::string, std::string> results;
        for (const auto& chain : chains) {
            std::string text = original;
            std::string label;
            for (const std::string& name : chain) {
                text = step.at(name)(text);
                label += (label.empty() ? "" : ", ") + name;
            }
            results[label] = text;
            if (seen.insert(text).second) add(label, text);
        }
        // The examples already qualify every pointer; the Kernel Tuner-style kernels do not.
        EXPECT_EQ(results["restrict"] != original, !kernel.path.starts_with("examples/"))
            << kernel.path;
        EXPECT_NE(results["restrict, ldg, acc, hoist, vec4, unroll2, bounds"], original)
            << kernel.path;
        // Where each loop rewrite is meant to apply, it does.
        if (kernel.name == "rbf_kernel_matrix") {
            EXPECT_NE(results["vec4"].find("float4"), std::string::npos);
        }
        if (kernel.name == "mvt_kernel1" || kernel.name == "gemm_kernel") {
            EXPECT_NE(results["acc"], original) << kernel.path;
            EXPECT_EQ(results["vec4"], original) << kernel.path;  // the loop stores, as written
            EXPECT_NE(results["acc, vec4, hoist"].find("float4"), std::string::npos) << kernel.path;
        }
        // Thread-per-row kernels as written: a warp shares each row (spmv_csr in both branches of
        // its `#if use_ldg`, which the tokens see side by side; one starts its row at an __ldg).
        if (kernel.name == "row_norm" || kernel.name == "spmv_csr") {
            EXPECT_NE(results["rows"].find("__shfl_xor_sync"), std::string::npos) << kernel.path;
        }
        if (kernel.name == "naive_transpose") {
            EXPECT_NE(results["restrict, ldg, tile, bounds"].find("__shared__"), std::string::npos);
        }
        // mvt's thread per row: once its sum is in a register, a warp shares each row.
        if (kernel.name == "mvt_kernel1") {
            EXPECT_EQ(results["rows"], original);  // x1[i] stored every step: no accumulator
            EXPECT_NE(results["acc, rows"].find("__shfl_xor_sync"), std::string::npos);
        }
    }
    const std::vector<compile::CompileResult> results = compile::compile_all(requests, 2);
    ASSERT_EQ(results.size(), requests.size());
    EXPECT_GE(results.size(), 60u);
    for (std::size_t i = 0; i < results.size(); ++i) {
        EXPECT_TRUE(results[i].ok) << labels[i] << ":\n"
                                   << results[i].log << "\n"
                                   << requests[i].source_text;
    }
}

}  // namespace
}  // namespace optiml::propose
