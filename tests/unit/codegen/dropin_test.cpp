// The generated text of the two additions to the launcher: launch arguments (taken after the
// kernel's arguments, used by the geometry, never passed to the kernel) and the drop-in form
// <name>_launch(grid, block, shared_bytes, stream, arguments...).
#include <gtest/gtest.h>

#include "driver/codegen/launcher.h"
#include "tests/unit/codegen/test_support.h"

namespace optiml::codegen {
namespace {

using test::fake_variant;
using test::load_fixture;

class ScaleMatrixLauncher : public ::testing::Test {
  protected:
    spec::Spec spec = load_fixture("scale_matrix.optiml.json");
    GeneratedFiles files =
        generate_launcher(spec, {fake_variant("sm_90", {{"block_size_x", 256}})}, {});

    // The text of the definition that starts with `signature`, up to its closing brace.
    std::string definition(const std::string& signature) const {
        const std::size_t start = files.source.find(signature);
        EXPECT_NE(start, std::string::npos) << files.source;
        if (start == std::string::npos) return "";
        return files.source.substr(start, files.source.find("\n}\n", start) - start);
    }
};

TEST_F(ScaleMatrixLauncher, BothFormsTakeTheLaunchArgumentsAfterTheKernels) {
    EXPECT_NE(files.header.find("cudaError_t scale_matrix(cudaStream_t stream, int width, const "
                                "float* in, float* out, int height);"),
              std::string::npos)
        << files.header;
    EXPECT_NE(files.header.find("cudaError_t scale_matrix_launch(dim3 grid, dim3 block, "
                                "std::size_t shared_bytes, cudaStream_t stream, int width, const "
                                "float* in, float* out, int height);"),
              std::string::npos)
        << files.header;
    EXPECT_NE(files.header.find("launch arguments `height`"), std::string::npos) << files.header;
}

TEST_F(ScaleMatrixLauncher, TheGeometryUsesTheLaunchArgumentAndTheKernelNeverGetsIt) {
    const std::string launcher = definition("cudaError_t scale_matrix(");
    EXPECT_NE(launcher.find("geometry.grid[1] = (static_cast<long long>(arg_height));"),
              std::string::npos)
        << launcher;
    EXPECT_NE(launcher.find("void* arguments[] = {&arg_width, &arg_in, &arg_out};"),
              std::string::npos)
        << launcher;
}

TEST_F(ScaleMatrixLauncher, TheDropInFormRunsTheVariantOnlyForTheSpecsOwnLaunch) {
    const std::string dropin = definition("cudaError_t scale_matrix_launch(");
    EXPECT_NE(dropin.find("dim3 caller_grid, dim3 caller_block, std::size_t caller_shared_bytes, "
                          "cudaStream_t stream, int arg_width"),
              std::string::npos)
        << dropin;
    // The caller's geometry is checked against the original's (block 128), then replaced by the
    // variant's (block 256).
    const std::size_t compare = dropin.find("::optiml::rt::same_launch(geometry, caller_grid");
    ASSERT_NE(compare, std::string::npos) << dropin;
    EXPECT_NE(dropin.substr(0, compare).find("geometry.block[0] = 128LL;"), std::string::npos);
    EXPECT_NE(dropin.substr(compare).find("geometry.block[0] = 256LL;"), std::string::npos);
    EXPECT_NE(dropin.find("kernel = nullptr;  // another launch"), std::string::npos);
    EXPECT_NE(dropin.find("dim3 grid = caller_grid;"), std::string::npos);
    EXPECT_NE(dropin.find("void* arguments[] = {&arg_width, &arg_in, &arg_out};"),
              std::string::npos);
    EXPECT_NE(dropin.find("table.note_launch();"), std::string::npos);  // before any return
}

TEST_F(ScaleMatrixLauncher, WithoutVariantsTheDropInFormIsTheCallersLaunch) {
    const GeneratedFiles original = generate_launcher(spec, {}, {});
    const std::size_t start = original.source.find("cudaError_t scale_matrix_launch(");
    ASSERT_NE(start, std::string::npos);
    const std::string dropin = original.source.substr(start, original.source.find("\n}\n", start));
    EXPECT_EQ(dropin.find("same_launch"), std::string::npos) << dropin;
    EXPECT_NE(dropin.find("static_cast<void>(arg_height);"), std::string::npos) << dropin;
    // No tuned kernel, nothing to report at exit.
    EXPECT_EQ(original.source.find("UnusedLauncherReport"), std::string::npos);
    EXPECT_NE(files.source.find("UnusedLauncherReport unused_report(table, \"scale_matrix\""),
              std::string::npos);
}

TEST(DropIn, ItsParametersAvoidTheKernelArgumentsNames) {
    spec::Spec spec = load_fixture("scale_matrix.optiml.json");
    spec.arguments[1].name = "grid";  // counts only: the launcher never evaluates them
    spec.arguments[2].name = "stream";
    const GeneratedFiles files = generate_launcher(spec, {}, {});
    EXPECT_NE(files.header.find("scale_matrix_launch(dim3 grid_, dim3 block, std::size_t "
                                "shared_bytes, cudaStream_t stream_, int width, const float* "
                                "grid, float* stream, int height);"),
              std::string::npos)
        << files.header;
}

TEST(DropIn, SpecsWithoutLaunchArgumentsKeepTheirLauncher) {
    const spec::Spec spec = load_fixture("saxpy.optiml.json");
    const GeneratedFiles files = generate_launcher(spec, {}, {});
    EXPECT_NE(
        files.header.find(
            "cudaError_t saxpy(cudaStream_t stream, int n, float a, const float* x, float* y);"),
        std::string::npos);
    EXPECT_NE(files.header.find("cudaError_t saxpy_launch(dim3 grid, dim3 block, std::size_t "
                                "shared_bytes, cudaStream_t stream, int n, float a, const float* "
                                "x, float* y);"),
              std::string::npos)
        << files.header;
}

// A kernel among host code with the original's own images: the program's kernel where its
// translation unit defines it (a weak reference), else those images, which
// OPTIML_FORCE_ORIGINAL leaves on (the table's third argument).
TEST(OriginalImages, AreTheFallbackWhereTheProgramDefinesNoKernel) {
    spec::Spec spec = load_fixture("scale_matrix.optiml.json");
    spec.compiler = "nvcc";
    Variant original = fake_variant("sm_80", {{"block_size_x", 128}});
    original.lowered_name = "_Z12scale_matrixiPKfPf";
    const GeneratedFiles files =
        generate_launcher(spec, {fake_variant("sm_90", {{"block_size_x", 256}})}, {}, {original});
    EXPECT_NE(
        files.source.find("extern \"C\" void _Z12scale_matrixiPKfPf() __attribute__((weak));"),
        std::string::npos)
        << files.source;
    EXPECT_NE(files.source.find("// The original (sm_80): CUBIN"), std::string::npos);
    EXPECT_NE(files.source.find("KernelTable original_table(original_images, "
                                "sizeof(original_images) / sizeof(original_images[0]), true);"),
              std::string::npos)
        << files.source;
    EXPECT_NE(files.source.find("if (&_Z12scale_matrixiPKfPf != nullptr)"), std::string::npos);
    EXPECT_NE(files.source.find("original_table.resolve(device, &kernel, &dispatch)"),
              std::string::npos);
}

}  // namespace
}  // namespace optiml::codegen
