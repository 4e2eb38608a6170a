// The drop-in form of a template kernel whose template argument sizes its block
// (tile_fill<tile_size>, block [tile_size, tile_size], as CUDA's matrixMul sample): the call does
// not name the instantiation, so the generated code must pick it by the caller's block, and never
// run one on another block.
#include <gtest/gtest.h>

#include "driver/codegen/launcher.h"
#include "tests/unit/codegen/test_support.h"

namespace optiml::codegen {
namespace {

using test::fake_variant;
using test::load_fixture;

std::string definition(const std::string& source, const std::string& signature) {
    const std::size_t start = source.find(signature);
    EXPECT_NE(start, std::string::npos) << source;
    if (start == std::string::npos) return "";
    return source.substr(start, source.find("\n}\n", start) - start);
}

TEST(BlockInstances, AreTheTemplateArgumentsValuesThatSizeTheBlockDefaultsFirst) {
    const spec::Spec spec = load_fixture("tile_fill.optiml.json");
    const std::vector<std::map<std::string, std::int64_t>> expected = {
        {{"tile_size", 32}}, {{"tile_size", 8}}, {{"tile_size", 16}}};
    EXPECT_EQ(block_instances(spec), expected);
    // A template argument that does not size the block, or a macro parameter: nothing to choose.
    EXPECT_TRUE(block_instances(load_fixture("scale_rows.optiml.json")).empty());
    EXPECT_TRUE(block_instances(load_fixture("scale_matrix.optiml.json")).empty());
}

TEST(DropInInstances, TheCallersBlockChoosesTheInstantiationAndAnyOtherIsRefused) {
    const spec::Spec spec = load_fixture("tile_fill.optiml.json");
    const GeneratedFiles files = generate_launcher(spec, {}, {});
    const std::string dropin = definition(files.source, "cudaError_t tile_fill_launch(");
    // Each instantiation's block, compared with the caller's, in order (the spec's own first).
    const std::size_t at32 = dropin.find("// 0: tile_fill<32> (the spec's kernel)");
    const std::size_t at8 = dropin.find("// 1: tile_fill<8>");
    const std::size_t at16 = dropin.find("// 2: tile_fill<16>");
    ASSERT_NE(at32, std::string::npos) << dropin;
    ASSERT_NE(at8, std::string::npos) << dropin;
    ASSERT_NE(at16, std::string::npos) << dropin;
    EXPECT_LT(at32, at8);
    EXPECT_LT(at8, at16);
    const std::string block16 = dropin.substr(at16);
    EXPECT_NE(block16.find("instance_block[0] = 16LL;\n        instance_block[1] = 16LL;\n"
                           "        instance_block[2] = 1LL;\n"
                           "        if (instance < 0 && ::optiml::rt::same_block(instance_block, "
                           "caller_block)) instance = 2;"),
              std::string::npos)
        << dropin;
    // No match: an error, said once, and no launch.
    const std::size_t refused = dropin.find(
        "if (instance < 0) {\n            return "
        "::optiml::rt::refuse_launch(said[3], "
        "\"optiml::tile_fill_launch\", caller_block,");
    ASSERT_NE(refused, std::string::npos) << dropin;
    EXPECT_NE(dropin.find("is the block of none of tile_fill<32>, tile_fill<8>, tile_fill<16> "
                          "(block [tile_size, tile_size, 1])"),
              std::string::npos)
        << dropin;
    // The launch runs the chosen instantiation, never the spec's on the caller's block.
    const std::size_t launch = dropin.find("cudaLaunchKernel(");
    ASSERT_NE(launch, std::string::npos);
    EXPECT_LT(refused, launch);
    EXPECT_NE(dropin.find("const void* original = "
                          "::optiml_generated_tile_fill::original_kernel(device, instance);"),
              std::string::npos)
        << dropin;
    // Where nvcc compiles the kernel's file here, each instantiation is compiled with it.
    const std::string original = definition(files.source, "const void* original_kernel(");
    EXPECT_NE(original.find("if (instance == 1) return reinterpret_cast<const "
                            "void*>(&::tile_fill<8>);"),
              std::string::npos)
        << original;
    EXPECT_NE(original.find("if (instance == 2) return reinterpret_cast<const "
                            "void*>(&::tile_fill<16>);"),
              std::string::npos)
        << original;
    EXPECT_NE(original.find("return reinterpret_cast<const void*>(&::tile_fill<tile_size>);"),
              std::string::npos)
        << original;
    // The named launcher keeps the spec's own instantiation.
    EXPECT_NE(definition(files.source, "cudaError_t tile_fill(cudaStream_t")
                  .find("original_kernel(device, 0);"),
              std::string::npos);
    EXPECT_NE(files.header.find("launches nothing and returns cudaErrorInvalidConfiguration"),
              std::string::npos)
        << files.header;
}

TEST(DropInInstances, ATunedVariantRunsOnlyForTheSpecsOwnLaunchElseTheBlocksInstantiation) {
    const spec::Spec spec = load_fixture("tile_fill.optiml.json");
    const GeneratedFiles files =
        generate_launcher(spec, {fake_variant("sm_90", {{"tile_size", 16}})}, {});
    const std::string dropin = definition(files.source, "cudaError_t tile_fill_launch(");
    const std::size_t same = dropin.find("::optiml::rt::same_launch(geometry, caller_grid");
    const std::size_t choice = dropin.find("if (kernel == nullptr) {");
    ASSERT_NE(same, std::string::npos) << dropin;
    ASSERT_NE(choice, std::string::npos) << dropin;
    // The variant is checked against the original's launch (block 32), then the instantiation is
    // chosen only where no tuned kernel runs.
    EXPECT_NE(dropin.substr(0, same).find("geometry.block[0] = 32LL;"), std::string::npos);
    EXPECT_LT(same, choice);
}

// A kernel among host code: the program's own instantiation where it defines it (weak), else the
// original's images at that instantiation; one neither holds is refused, not run as another.
TEST(DropInInstances, AmongHostCodeEachInstantiationHasItsOwnOriginalOrIsRefused) {
    spec::Spec spec = load_fixture("tile_fill.optiml.json");
    spec.compiler = "nvcc";
    Variant at32 = fake_variant("sm_90", {{"tile_size", 32}});
    at32.lowered_name = "_Z9tile_fillILi32EEvPii";
    Variant at16 = fake_variant("sm_90", {{"tile_size", 16}});
    at16.lowered_name = "_Z9tile_fillILi16EEvPii";
    const GeneratedFiles files = generate_launcher(spec, {}, {}, {at32, at16});
    EXPECT_NE(files.source.find("extern \"C\" void _Z9tile_fillILi16EEvPii() "
                                "__attribute__((weak));"),
              std::string::npos)
        << files.source;
    EXPECT_NE(files.source.find("KernelTable original_2_table(original_2_images"),
              std::string::npos)
        << files.source;
    const std::string original = definition(files.source, "const void* original_kernel(");
    EXPECT_NE(original.find("// tile_fill<8>: neither the program nor OptiML compiled it.\n"
                            "    if (instance == 1) return nullptr;"),
              std::string::npos)
        << original;
    EXPECT_NE(original.find("if (instance == 2) {  // tile_fill<16>\n"
                            "        if (&_Z9tile_fillILi16EEvPii != nullptr)"),
              std::string::npos)
        << original;
    EXPECT_NE(original.find("original_2_table.resolve(device, &kernel, &dispatch)"),
              std::string::npos);
    EXPECT_NE(original.find("original_table.resolve(device, &kernel, &dispatch)"),
              std::string::npos);
    const std::string dropin = definition(files.source, "cudaError_t tile_fill_launch(");
    EXPECT_NE(dropin.find("if (instance > 0 && ::optiml_generated_tile_fill::original_kernel("
                          "device, instance) == nullptr) {\n            return "
                          "::optiml::rt::refuse_launch(said[instance]"),
              std::string::npos)
        << dropin;
    EXPECT_NE(dropin.find("\"is tile_fill<8>'s, which this program does not hold"),
              std::string::npos)
        << dropin;
}

TEST(DropInInstances, AnOriginalAtNoInstantiationIsAnError) {
    spec::Spec spec = load_fixture("tile_fill.optiml.json");
    spec.compiler = "nvcc";
    EXPECT_THROW(generate_launcher(spec, {}, {}, {fake_variant("sm_90", {{"tile_size", 64}})}),
                 CodegenError);
}

}  // namespace
}  // namespace optiml::codegen
