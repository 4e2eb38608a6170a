// The generated text: signature, per-variant geometry, embedded images, comment block.
#include <gtest/gtest.h>

#include "driver/codegen/launcher.h"
#include "tests/unit/codegen/test_support.h"

namespace optiml::codegen {
namespace {

using test::fake_variant;
using test::load_fixture;

class SaxpyLauncher : public ::testing::Test {
  protected:
    spec::Spec spec = load_fixture("saxpy.optiml.json");
    std::vector<Variant> variants = {
        fake_variant("sm_90", {{"block_size_x", 512}, {"items_per_thread", 4}})};
    std::vector<std::string> notes = {"sm_80: no tuned entry; original kernel"};
    GeneratedFiles files = generate_launcher(spec, variants, notes);
};

TEST_F(SaxpyLauncher, HeaderDeclaresTheLauncherMirroringTheKernelArguments) {
    EXPECT_NE(
        files.header.find(
            "cudaError_t saxpy(cudaStream_t stream, int n, float a, const float* x, float* y);"),
        std::string::npos)
        << files.header;
    EXPECT_NE(files.header.find("::optiml::rt::Dispatch saxpy_dispatch(int device);"),
              std::string::npos);
    EXPECT_NE(files.header.find("#include <cuda_runtime.h>"), std::string::npos);
    EXPECT_NE(files.header.find("#include <optiml/runtime.h>"), std::string::npos);
    EXPECT_NE(files.header.find("#pragma once"), std::string::npos);
}

TEST_F(SaxpyLauncher, HeaderDoesNotDependOnTheTunedVariants) {
    // A new tuning result must not recompile the user's sources that include the header.
    EXPECT_EQ(generate_launcher(spec, {}, {}).header, files.header);
}

TEST_F(SaxpyLauncher, EachVariantGetsItsOwnGeometryAndTheOriginalItsDefaults) {
    const std::string& source = files.source;
    const std::size_t tuned =
        source.find("case 0:  // sm_90: block_size_x=512, items_per_thread=4");
    const std::size_t original =
        source.find("default:  // original kernel: block_size_x=256, items_per_thread=1");
    ASSERT_NE(tuned, std::string::npos) << source;
    ASSERT_NE(original, std::string::npos) << source;
    const std::string tuned_case = source.substr(tuned, original - tuned);
    const std::string original_case =
        source.substr(original, source.find('}', original) - original);
    EXPECT_NE(tuned_case.find("geometry.block[0] = 512LL;"), std::string::npos) << tuned_case;
    EXPECT_NE(tuned_case.find("geometry.grid[0] = ::optiml::rt::ceil_div((static_cast<long "
                              "long>(arg_n)), (512LL * 4LL));"),
              std::string::npos)
        << tuned_case;
    EXPECT_NE(tuned_case.find("geometry.block[1] = 1LL;"), std::string::npos);
    EXPECT_NE(tuned_case.find("geometry.shared_bytes = 0LL;"), std::string::npos);
    EXPECT_NE(original_case.find("geometry.block[0] = 256LL;"), std::string::npos) << original_case;
    EXPECT_NE(original_case.find("(256LL * 1LL)"), std::string::npos) << original_case;
}

TEST_F(SaxpyLauncher, LaunchesThroughTheRuntimeAndReturnsErrors) {
    const std::string& source = files.source;
    EXPECT_NE(source.find("cudaError_t saxpy(cudaStream_t stream, int arg_n, float arg_a, const "
                          "float* arg_x, float* arg_y) {"),
              std::string::npos)
        << source;
    EXPECT_NE(source.find("void* arguments[] = {&arg_n, &arg_a, &arg_x, &arg_y};"),
              std::string::npos);
    EXPECT_NE(source.find("::optiml::rt::launch_configuration(geometry, &grid, &block, "
                          "&shared_bytes)"),
              std::string::npos);
    EXPECT_NE(
        source.find("cudaLaunchKernel(function, grid, block, arguments, shared_bytes, stream)"),
        std::string::npos);
    EXPECT_NE(source.find("reinterpret_cast<const void*>(&::saxpy)"), std::string::npos);
    EXPECT_EQ(source.find("abort"), std::string::npos);
    EXPECT_EQ(source.find("exit("), std::string::npos);
}

TEST_F(SaxpyLauncher, IncludesTheHeaderBeforeTheKernelSourceByAbsolutePath) {
    const std::size_t header = files.source.find("#include \"include/optiml/saxpy.h\"");
    const std::size_t kernel =
        files.source.find("#include \"" + spec.source.generic_string() + "\"");
    ASSERT_NE(header, std::string::npos);
    ASSERT_NE(kernel, std::string::npos) << files.source;
    EXPECT_LT(header, kernel);
    EXPECT_TRUE(spec.source.is_absolute());
}

TEST_F(SaxpyLauncher, EmbedsCubinAndNulTerminatedPtxInTheImageTable) {
    const std::string& source = files.source;
    EXPECT_NE(source.find("alignas(64) const unsigned char image_0[] = {\n    0x7f, 0x45, 0x4c, "
                          "0x46, 0x00, 0x01, 0xfe,\n};"),
              std::string::npos)
        << source;
    const std::string& ptx = variants[0].ptx;
    const std::size_t ptx_array = source.find("image_1[] = {");
    ASSERT_NE(ptx_array, std::string::npos);
    const std::string ptx_body = source.substr(ptx_array, source.find("};", ptx_array) - ptx_array);
    // One byte per "0x", plus the terminating NUL.
    std::size_t bytes = 0;
    for (std::size_t at = ptx_body.find("0x"); at != std::string::npos;
         at = ptx_body.find("0x", at + 1))
        ++bytes;
    EXPECT_EQ(bytes, ptx.size() + 1);
    EXPECT_NE(ptx_body.find("0x00,\n"), std::string::npos);
    EXPECT_NE(source.find("{90, false, image_0, sizeof(image_0), \"_Z5saxpyifPKfPf\", 0},"),
              std::string::npos);
    EXPECT_NE(source.find("{90, true, image_1, sizeof(image_1), \"_Z5saxpyifPKfPf\", 0},"),
              std::string::npos);
    EXPECT_NE(source.find("OPTIML_CONSTINIT ::optiml::rt::KernelTable table(images, sizeof(images) "
                          "/ sizeof(images[0]));"),
              std::string::npos);
}

TEST_F(SaxpyLauncher, CommentBlockSaysWhatEachArchitectureRunsAndWhy) {
    // The block that opens the file, up to its first blank line.
    const std::string top = files.source.substr(0, files.source.find("\n\n") + 1);
    EXPECT_NE(top.find("// sm_90: variant 0, tuned on NVIDIA H200: 0.081 ms vs original 0.240 ms "
                       "(2.96x)"),
              std::string::npos)
        << top;
    EXPECT_NE(top.find("//     parameters: block_size_x=512, items_per_thread=4"),
              std::string::npos);
    EXPECT_NE(top.find("CUBIN sm_90 (7 bytes), PTX compute_90"), std::string::npos) << top;
    EXPECT_NE(top.find("//     cache key: c0ffeesm_90\n"), std::string::npos);
    EXPECT_NE(top.find("// sm_80: no tuned entry; original kernel"), std::string::npos);
    EXPECT_NE(top.find("block_size_x=256, items_per_thread=1"), std::string::npos);
    EXPECT_NE(top.find(spec.file.generic_string()), std::string::npos);
    for (std::size_t line = 0; line < top.size();) {
        const std::size_t end = top.find('\n', line);
        const std::string text = top.substr(line, end - line);
        EXPECT_TRUE(text.starts_with("//")) << text;
        EXPECT_LE(text.size(), 100u) << text;
        line = end + 1;
    }
}

// A winner of a derived source (or with options of its own) says so where its dispatch is.
TEST(DerivedVariant, TheCommentNamesItsSourceTransformationsAndOptions) {
    const spec::Spec spec = load_fixture("saxpy.optiml.json");
    Variant derived = fake_variant("sm_90", {{"block_size_x", 512}, {"items_per_thread", 4}});
    derived.winner.source_id = "3fa2c1b0d4e5f60718293a4b5c6d7e8f";
    derived.winner.transformations = {"__launch_bounds__(512)", "unroll 4"};
    derived.winner.options = {"-maxrregcount=64"};
    const std::string source = generate_launcher(spec, {derived}, {}).source;
    const std::string top = source.substr(0, source.find("\n\n") + 1);
    EXPECT_NE(top.find("//     source: derived 3fa2c1b0d4e5 by __launch_bounds__(512), unroll 4"),
              std::string::npos)
        << top;
    EXPECT_NE(top.find("//     compile options: -maxrregcount=64"), std::string::npos) << top;
    const std::string plain =
        generate_launcher(
            spec, {fake_variant("sm_90", {{"block_size_x", 512}, {"items_per_thread", 4}})}, {})
            .source;
    EXPECT_EQ(plain.find("source: derived"), std::string::npos);
    EXPECT_EQ(plain.find("compile options:"), std::string::npos);
}

// A rewrite that gives each row a warp launches 32 times the spec's grid: the variant's own grid
// expressions, with its parameters; the original keeps the spec's.
TEST(DerivedVariant, AVariantWithItsOwnGridLaunchesItAndTheCommentSaysSo) {
    const spec::Spec spec = load_fixture("saxpy.optiml.json");
    Variant derived = fake_variant("sm_90", {{"block_size_x", 128}, {"items_per_thread", 1}});
    derived.winner.source_id = "3fa2c1b0d4e5f60718293a4b5c6d7e8f";
    derived.winner.transformations = {"warp_per_row"};
    derived.winner.grid = {"(ceil_div(n, block_size_x * items_per_thread)) * 32", "1", "1"};
    const std::string source = generate_launcher(spec, {derived}, {}).source;
    const std::size_t tuned = source.find("case 0:  // sm_90");
    const std::size_t original = source.find("default:  // original kernel", tuned);
    ASSERT_NE(tuned, std::string::npos) << source;
    const std::string tuned_case = source.substr(tuned, original - tuned);
    EXPECT_NE(tuned_case.find("geometry.grid[0] = (::optiml::rt::ceil_div((static_cast<long "
                              "long>(arg_n)), (128LL * 1LL)) * 32LL);"),
              std::string::npos)
        << tuned_case;
    const std::string original_case =
        source.substr(original, source.find('}', original) - original);
    EXPECT_EQ(original_case.find("32LL"), std::string::npos) << original_case;
    EXPECT_NE(source.find("//     grid (changed by its rewrites): (ceil_div(n, block_size_x * "
                          "items_per_thread)) * 32, 1, 1"),
              std::string::npos);
    derived.winner.grid = {"n * 32", "1"};
    EXPECT_THROW(generate_launcher(spec, {derived}, {}), CodegenError);
}

TEST_F(SaxpyLauncher, VariantsAreNumberedInArchitectureOrder) {
    const std::vector<Variant> two = {
        fake_variant("sm_90", {{"block_size_x", 512}, {"items_per_thread", 4}}),
        fake_variant("sm_80", {{"block_size_x", 128}, {"items_per_thread", 2}})};
    const GeneratedFiles generated = generate_launcher(spec, two, {});
    EXPECT_NE(generated.source.find("case 0:  // sm_80: block_size_x=128, items_per_thread=2"),
              std::string::npos)
        << generated.source;
    EXPECT_NE(generated.source.find("case 1:  // sm_90: block_size_x=512, items_per_thread=4"),
              std::string::npos);
    EXPECT_NE(
        generated.source.find("{80, false, image_0, sizeof(image_0), \"_Z5saxpyifPKfPf\", 0},"),
        std::string::npos);
    EXPECT_NE(
        generated.source.find("{90, true, image_3, sizeof(image_3), \"_Z5saxpyifPKfPf\", 1},"),
        std::string::npos);
    // The same variants in another order give the same text: nothing is rewritten needlessly.
    EXPECT_EQ(generate_launcher(spec, {two[1], two[0]}, {}).source, generated.source);
}

TEST_F(SaxpyLauncher, WithoutVariantsEveryDeviceRunsTheOriginal) {
    const GeneratedFiles generated = generate_launcher(spec, {}, {"sm_90: cache miss"});
    EXPECT_NE(
        generated.source.find("OPTIML_CONSTINIT ::optiml::rt::KernelTable table(nullptr, 0);"),
        std::string::npos);
    EXPECT_EQ(generated.source.find("switch"), std::string::npos);
    EXPECT_NE(generated.source.find("geometry.block[0] = 256LL;"), std::string::npos);
}

TEST(TemplatedLauncher, NamesTheKernelByItsExpressionAndSetsConstants) {
    const spec::Spec spec = load_fixture("scale_rows.optiml.json");
    Variant variant =
        fake_variant("sm_90", {{"block_size_x", 64}, {"block_size_y", 8}, {"reserve_kib", 96}});
    variant.lowered_name = "_Z10scale_rowsIfLi3EEviiPKT_PS0_";
    variant.constant_symbols["row_scale"] = "row_scale_lowered";
    const GeneratedFiles files = generate_launcher(spec, {variant}, {});

    EXPECT_NE(files.header.find("cudaError_t scale_rows(cudaStream_t stream, int rows, int cols, "
                                "const float* in, float* out);"),
              std::string::npos)
        << files.header;
    EXPECT_NE(files.header.find("cudaError_t scale_rows_set_row_scale(const float* values, "
                                "std::size_t count, cudaStream_t stream);"),
              std::string::npos);
    EXPECT_NE(files.header.find("Call on each device before launching."), std::string::npos);
    EXPECT_NE(files.source.find("reinterpret_cast<const void*>(&::scale_rows<float, 3>)"),
              std::string::npos)
        << files.source;
    EXPECT_NE(files.source.find("geometry.block[1] = 8LL;"), std::string::npos);
    EXPECT_NE(files.source.find("geometry.grid[1] = ::optiml::rt::ceil_div((static_cast<long "
                                "long>(arg_rows)), 8LL);"),
              std::string::npos);
    EXPECT_NE(
        files.source.find("geometry.shared_bytes = (((64LL * 8LL) * 4LL) + (96LL * 1024LL));"),
        std::string::npos);
    EXPECT_NE(files.source.find("cudaMemcpyToSymbolAsync(::row_scale, values, bytes, 0, "
                                "cudaMemcpyHostToDevice, stream)"),
              std::string::npos);
    EXPECT_NE(files.source.find("static const char* const symbols[] = {\"row_scale_lowered\"};"),
              std::string::npos);
    EXPECT_NE(files.source.find("cudaLibraryGetGlobal(&address, &size, library, "
                                "symbols[dispatch.variant])"),
              std::string::npos);
    EXPECT_NE(
        files.source.find("allow_dynamic_shared_memory(device, kernel, original, shared_bytes)"),
        std::string::npos);
}

}  // namespace
}  // namespace optiml::codegen
