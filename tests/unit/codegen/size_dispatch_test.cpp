// Dispatch by problem size in the generated launcher (issue 29): the launch's size picks the
// variant tuned for its range, in both launch forms, with a note once for an untuned size; the
// __constant__ setters reach every size variant; plans that cannot dispatch are refused.
#include <gtest/gtest.h>

#include <limits>

#include "driver/codegen/launcher.h"
#include "tests/unit/codegen/test_support.h"

namespace optiml::codegen {
namespace {

using test::quote;
using test::run_command;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Variant 0 (tag 0) for sm_90 with two size variants: tag 1 below 131072 elements, tag 0 up to
// 4194304, tag 2 above; tuned from 16384 to 33554432.
Variant with_plan(Variant variant, Variant small, Variant large) {
    variant.by_size.arguments = {"n"};
    variant.by_size.smallest = 16384;
    variant.by_size.largest = 33554432;
    variant.by_size.ranges = {{131072, 0}, {4194304, -1}, {kInfinity, 1}};
    variant.by_size.variants = {std::move(small), std::move(large)};
    return variant;
}

Variant fake_tagged(int tag, int block) {
    Variant variant = test::fake_variant("sm_90", {{"block_size_x", block}, {"tag", tag}});
    variant.lowered_name = "size_tag";
    return variant;
}

Variant fake_plan() {
    return with_plan(fake_tagged(0, 128), fake_tagged(1, 64), fake_tagged(2, 256));
}

TEST(SizeDispatch, EachSizeVariantHasItsTableAndGeometryAndTheLauncherPicksBySize) {
    const spec::Spec spec = test::load_fixture("size_tag.optiml.json");
    const GeneratedFiles files = generate_launcher(spec, {fake_plan()}, {});
    const std::string& source = files.source;
    // Variant 0 in the architectures' table; size variants 1 and 2 in tables of their own.
    EXPECT_NE(source.find("// Size variant 1 (sm_90): CUBIN"), std::string::npos) << source;
    EXPECT_NE(source.find("size_1_table(size_1_images"), std::string::npos) << source;
    EXPECT_NE(source.find("size_2_table(size_2_images"), std::string::npos) << source;
    EXPECT_NE(source.find("\"size_tag\", 2},"), std::string::npos) << source;
    EXPECT_NE(source.find("case 1:  // sm_90 by size: block_size_x=64, tag=1"), std::string::npos);
    EXPECT_NE(source.find("case 2:  // sm_90 by size: block_size_x=256, tag=2"), std::string::npos);
    // Both launch forms pick by the size before the geometry.
    const std::string pick =
        "chosen = ::optiml_generated_size_tag::table_for_size(dispatch.variant, "
        "static_cast<double>(arg_n));";
    const std::size_t first = source.find(pick);
    ASSERT_NE(first, std::string::npos) << source;
    EXPECT_NE(source.find(pick, first + 1), std::string::npos) << "the drop-in form too";
    EXPECT_NE(source.find("chosen->allow_dynamic_shared_memory("), std::string::npos);
    // The comment block says which variant runs which sizes.
    EXPECT_NE(source.find("by problem size (n, tuned from 1.64e+04 to 3.36e+07):"),
              std::string::npos)
        << source;
    EXPECT_NE(source.find("below 1.31e+05: variant 1, block_size_x=64, tag=1"), std::string::npos);
    EXPECT_NE(source.find("from 1.31e+05 below 4.19e+06: this variant"), std::string::npos);
    EXPECT_NE(source.find("from 4.19e+06: variant 2, block_size_x=256, tag=2"), std::string::npos);
}

TEST(SizeDispatch, WithoutAPlanTheLauncherHasNoSizeChoice) {
    const spec::Spec spec = test::load_fixture("size_tag.optiml.json");
    const std::string source = generate_launcher(spec, {fake_tagged(0, 128)}, {}).source;
    EXPECT_EQ(source.find("table_for_size"), std::string::npos);
    EXPECT_EQ(source.find("UntunedSizeNote"), std::string::npos);
}

// The generated .cu compiled into a host program that calls its table_for_size(): no GPU needed.
TEST(SizeDispatch, TheTableForEachSizeFollowsTheBoundariesAndAnUntunedSizeIsSaidOnce) {
    const spec::Spec spec = test::load_fixture("size_tag.optiml.json");
    const std::filesystem::path dir = test::fresh_directory("table_for_size");
    write_generated_files(dir, spec.name, generate_launcher(spec, {fake_plan()}, {}));
    const test::CommandResult build =
        run_command(std::string(OPTIML_NVCC) + " -arch=sm_90 -std=c++20 -I" +
                    quote(OPTIML_RUNTIME_INCLUDE) + " -I" + quote(dir / "include") + " -I" +
                    quote(dir) + " " + quote(test::data_dir() / "table_for_size.cu") + " " +
                    test::runtime_library_arguments() + " -o " + quote(dir / "program"));
    ASSERT_EQ(build.exit_code, 0) << build.output;
    const test::CommandResult run = run_command(quote(dir / "program"));
    ASSERT_EQ(run.exit_code, 0) << run.output;
    for (const char* line :
         {"1000 -> size_1_table", "16384 -> size_1_table", "131071 -> size_1_table",
          "131072 -> table\n", "4194303 -> table\n", "4194304 -> size_2_table",
          "33554432 -> size_2_table", "1000000000 -> size_2_table", "variant 5 -> table\n"})
        EXPECT_NE(run.output.find(line), std::string::npos) << line << "\n" << run.output;
    // 1000 and 1e9 lie outside the tuned sizes: said once (a build without NDEBUG always says).
    const std::string note =
        "optiml: optiml::size_tag: a launch of size 1000 (n) lies outside the sizes it was tuned "
        "at on sm_90 (16384 to 33554432); it runs the variant of the nearest tuned size";
    const std::size_t said = run.output.find(note);
    EXPECT_NE(said, std::string::npos) << run.output;
    EXPECT_EQ(run.output.find("lies outside", said + note.size()), std::string::npos) << run.output;
    std::filesystem::remove_all(dir);
}

// On a GPU: real images with different tags; each launch size runs its range's variant.
TEST(SizeDispatchProgram, EachLaunchRunsTheVariantOfItsSizeInBothForms) {
    const spec::Spec spec = test::load_fixture("size_tag.optiml.json");
    const std::filesystem::path images = test::fresh_directory("size_tag_images");
    const auto real = [&](int tag, int block) {
        return test::real_variant(spec.source, images, {{"block_size_x", block}, {"tag", tag}});
    };
    const Variant plan = with_plan(real(0, 128), real(1, 64), real(2, 256));
    const std::filesystem::path dir = test::fresh_directory("size_tag_program");
    write_generated_files(dir, spec.name, generate_launcher(spec, {plan}, {}));
    const test::CommandResult build = test::build_program(dir, "size_tag", "call_size_tag.cpp");
    ASSERT_EQ(build.exit_code, 0) << build.output;
    const test::CommandResult run = run_command(quote(dir / "program"));
    // Removed before any return, a skip included (it left both in the temp folder on every run
    // without a GPU).
    std::filesystem::remove_all(dir);
    std::filesystem::remove_all(images);
    if (run.exit_code == 77) GTEST_SKIP() << "no GPU: " << run.output;
    ASSERT_EQ(run.exit_code, 0) << run.output;
    for (const char* line : {"n=1000 launcher 1 drop-in 1", "n=20000 launcher 1 drop-in 1",
                             "n=1048576 launcher 0 drop-in 0", "n=8388608 launcher 2 drop-in 2",
                             "n=67108864 launcher 2 drop-in 2"})
        EXPECT_NE(run.output.find(line), std::string::npos) << line << "\n" << run.output;
    EXPECT_NE(run.output.find("a launch of size 1000 (n) lies outside"), std::string::npos);
    std::cout << run.output << "\n";
}

// The setter of a __constant__ symbol writes it in every table a launch may run.
TEST(SizeDispatch, TheConstantSetterReachesEverySizeVariantsTable) {
    const spec::Spec spec = test::load_fixture("scale_rows.optiml.json");
    const auto variant = [](int block_x) {
        Variant v = test::fake_variant(
            "sm_90", {{"block_size_x", block_x}, {"block_size_y", 8}, {"reserve_kib", 96}});
        v.constant_symbols["row_scale"] = "row_scale_" + std::to_string(block_x);
        return v;
    };
    Variant owner = variant(64);
    owner.by_size.arguments = {"rows"};
    owner.by_size.smallest = 64;
    owner.by_size.largest = 4096;
    owner.by_size.ranges = {{512, 0}, {kInfinity, -1}};
    owner.by_size.variants = {variant(32)};
    const std::string source = generate_launcher(spec, {owner}, {}).source;
    EXPECT_NE(source.find("symbols[] = {\"row_scale_64\", \"row_scale_32\"};"), std::string::npos)
        << source;
    EXPECT_NE(source.find("tables[] = {&::optiml_generated_scale_rows::table, "
                          "&::optiml_generated_scale_rows::size_1_table};"),
              std::string::npos)
        << source;
}

}  // namespace
}  // namespace optiml::codegen
