// The generated files are real code: nvcc compiles the .cu, the host C++ compiler compiles the
// header alone, and a program linked against optiml_runtime calls the launcher. On a machine
// without a GPU the launcher must return a cudaError_t; on a GPU the results must be right.
#include <gtest/gtest.h>

#include "driver/codegen/launcher.h"
#include "tests/unit/codegen/test_support.h"

namespace optiml::codegen {
namespace {

using test::quote;
using test::run_command;

const std::string nvcc = OPTIML_NVCC;
const std::string host_compiler = OPTIML_HOST_CXX;
const std::filesystem::path runtime_include = OPTIML_RUNTIME_INCLUDE;
const std::filesystem::path cuda_include = OPTIML_CUDA_INCLUDE;

// Writes the launcher for `spec` into a fresh folder laid out as `optiml build` lays it out.
std::filesystem::path generate_into(const std::string& label, const spec::Spec& spec,
                                    const std::vector<Variant>& variants) {
    const std::filesystem::path dir = test::fresh_directory(label);
    write_generated_files(dir, spec.name, generate_launcher(spec, variants, {"sm_80: no entry"}));
    return dir;
}

test::CommandResult compile_source(const std::filesystem::path& dir, const std::string& name) {
    return run_command(nvcc + " -arch=sm_90 -std=c++17 -c -I" + quote(runtime_include) +
                       " -Xcompiler=-Wall,-Wextra,-Wshadow,-Werror -Werror=all-warnings -o " +
                       quote(dir / (name + ".o")) + " " + quote(dir / source_path(name)));
}

// As a user's .cpp file would: the header alone, by the host compiler, with strict warnings.
test::CommandResult compile_header_alone(const std::filesystem::path& dir,
                                         const std::string& name) {
    const std::filesystem::path user_file = dir / "user.cpp";
    test::write_file(user_file, "#include <optiml/" + name + ".h>\n");
    return run_command(host_compiler +
                       " -std=c++17 -fsyntax-only -Wall -Wextra -Wpedantic -Wshadow -Wconversion "
                       "-Werror -I" +
                       quote(dir / "include") + " -I" + quote(runtime_include) + " -isystem " +
                       quote(cuda_include) + " " + quote(user_file));
}

TEST(CompileGenerated, SaxpySourceCompilesWithNvccAndHeaderWithTheHostCompiler) {
    const spec::Spec spec = test::load_fixture("saxpy.optiml.json");
    const std::filesystem::path dir = generate_into(
        "saxpy", spec,
        {test::fake_variant("sm_90", {{"block_size_x", 512}, {"items_per_thread", 4}})});
    const test::CommandResult source = compile_source(dir, "saxpy");
    EXPECT_EQ(source.exit_code, 0) << source.output;
    const test::CommandResult header = compile_header_alone(dir, "saxpy");
    EXPECT_EQ(header.exit_code, 0) << header.output;
    std::filesystem::remove_all(dir);
}

TEST(CompileGenerated, TemplatedSourceWithConstantsCompilesWithNvccAndHeaderWithTheHostCompiler) {
    const spec::Spec spec = test::load_fixture("scale_rows.optiml.json");
    Variant variant = test::fake_variant(
        "sm_90", {{"block_size_x", 64}, {"block_size_y", 8}, {"reserve_kib", 96}});
    variant.lowered_name = "_Z10scale_rowsIfLi3EEviiPKT_PS0_";
    const std::filesystem::path dir = generate_into("scale_rows", spec, {variant});
    const test::CommandResult source = compile_source(dir, "scale_rows");
    EXPECT_EQ(source.exit_code, 0) << source.output;
    const test::CommandResult header = compile_header_alone(dir, "scale_rows");
    EXPECT_EQ(header.exit_code, 0) << header.output;
    std::filesystem::remove_all(dir);
}

// A variant whose rewrite gave it its own grid: the generated geometry compiles as strictly.
TEST(CompileGenerated, AVariantWithItsOwnGridCompilesWithNvcc) {
    const spec::Spec spec = test::load_fixture("saxpy.optiml.json");
    Variant variant = test::fake_variant("sm_90", {{"block_size_x", 128}, {"items_per_thread", 1}});
    variant.winner.source_id = "3fa2c1b0d4e5f60718293a4b5c6d7e8f";
    variant.winner.transformations = {"coarsen_items by 8"};
    variant.winner.grid = {"ceil_div(ceil_div(n, block_size_x * items_per_thread), 8)", "1", "1"};
    const std::filesystem::path dir = generate_into("saxpy_grid", spec, {variant});
    const test::CommandResult source = compile_source(dir, "saxpy");
    EXPECT_EQ(source.exit_code, 0) << source.output;
    std::filesystem::remove_all(dir);
}

TEST(CompileGenerated, LauncherWithoutVariantsCompiles) {
    const spec::Spec spec = test::load_fixture("scale_rows.optiml.json");
    const std::filesystem::path dir = generate_into("no_variants", spec, {});
    const test::CommandResult source = compile_source(dir, "scale_rows");
    EXPECT_EQ(source.exit_code, 0) << source.output;
    std::filesystem::remove_all(dir);
}

TEST(CompileGenerated, SaxpyProgramCallsTheLauncherAndGetsAnErrorOrTheRightResult) {
    const spec::Spec spec = test::load_fixture("saxpy.optiml.json");
    const std::filesystem::path images = test::fresh_directory("saxpy_images");
    const Variant tuned =
        test::real_variant(spec.source, images, {{"block_size_x", 512}, {"items_per_thread", 4}});
    ASSERT_FALSE(tuned.lowered_name.empty());
    const std::filesystem::path dir = generate_into("saxpy_program", spec, {tuned});
    const test::CommandResult build = test::build_program(dir, "saxpy", "call_saxpy.cpp");
    ASSERT_EQ(build.exit_code, 0) << build.output;
    const test::CommandResult run = run_command(quote(dir / "program"));
    EXPECT_EQ(run.exit_code, 0) << run.output;
    std::cout << run.output << "\n";
    std::filesystem::remove_all(dir);
    std::filesystem::remove_all(images);
}

TEST(CompileGenerated, TemplatedProgramSetsConstantsOnTheTunedAndTheOriginalKernel) {
    const spec::Spec spec = test::load_fixture("scale_rows.optiml.json");
    const std::filesystem::path images = test::fresh_directory("scale_rows_images");
    // NVRTC instantiates the template from its name expression; with nvcc the test does it.
    const std::filesystem::path instantiation = images / "instantiate.cu";
    test::write_file(instantiation, "#include \"" + spec.source.string() +
                                        "\"\ntemplate __global__ void scale_rows<float, 3>(int, "
                                        "int, const float*, float*);\n");
    const Variant tuned = test::real_variant(
        instantiation, images, {{"block_size_x", 64}, {"block_size_y", 8}, {"reserve_kib", 96}});
    ASSERT_FALSE(tuned.lowered_name.empty());
    const std::filesystem::path dir = generate_into("scale_rows_program", spec, {tuned});
    const test::CommandResult build = test::build_program(dir, "scale_rows", "call_scale_rows.cpp");
    ASSERT_EQ(build.exit_code, 0) << build.output;
    const test::CommandResult tuned_run = run_command(quote(dir / "program"));
    EXPECT_EQ(tuned_run.exit_code, 0) << tuned_run.output;
    const test::CommandResult original_run =
        run_command("OPTIML_FORCE_ORIGINAL=1 " + quote(dir / "program"));
    EXPECT_EQ(original_run.exit_code, 0) << original_run.output;
    std::cout << tuned_run.output << "\n" << original_run.output << "\n";
    std::filesystem::remove_all(dir);
    std::filesystem::remove_all(images);
}

TEST(CompileGenerated, LaunchArgumentsAndTheDropInFormCompileAndRun) {
    const spec::Spec spec = test::load_fixture("scale_matrix.optiml.json");
    const std::filesystem::path images = test::fresh_directory("scale_matrix_images");
    const Variant tuned = test::real_variant(spec.source, images, {{"block_size_x", 256}});
    ASSERT_FALSE(tuned.lowered_name.empty());
    const std::filesystem::path dir = generate_into("scale_matrix_program", spec, {tuned});
    const test::CommandResult source = compile_source(dir, "scale_matrix");
    EXPECT_EQ(source.exit_code, 0) << source.output;
    const test::CommandResult header = compile_header_alone(dir, "scale_matrix");
    EXPECT_EQ(header.exit_code, 0) << header.output;
    const test::CommandResult build =
        test::build_program(dir, "scale_matrix", "call_scale_matrix.cpp");
    ASSERT_EQ(build.exit_code, 0) << build.output;
    const test::CommandResult run = run_command("OPTIML_VERBOSE=1 " + quote(dir / "program"));
    EXPECT_EQ(run.exit_code, 0) << run.output;
    // It launched through OptiML: no report of a leftover <<<>>>.
    EXPECT_EQ(run.output.find("never launched"), std::string::npos) << run.output;
    std::cout << run.output << "\n";
    std::filesystem::remove_all(dir);
    std::filesystem::remove_all(images);
}

TEST(CompileGenerated, AProgramThatNeverLaunchesTheTunedKernelSaysSoWhenVerbose) {
    const spec::Spec spec = test::load_fixture("scale_matrix.optiml.json");
    const std::filesystem::path dir =
        generate_into("never_launch", spec, {test::fake_variant("sm_90", {{"block_size_x", 256}})});
    const test::CommandResult build =
        run_command(nvcc + " -arch=sm_90 -std=c++17 -DNDEBUG -I" + quote(runtime_include) + " -I" +
                    quote(dir / "include") + " " + quote(dir / source_path("scale_matrix")) + " " +
                    quote(test::data_dir() / "never_launch.cpp") + " " +
                    test::runtime_library_arguments() + " -o " + quote(dir / "program"));
    ASSERT_EQ(build.exit_code, 0) << build.output;
    const test::CommandResult quiet = run_command(quote(dir / "program"));
    EXPECT_EQ(quiet.exit_code, 0) << quiet.output;
    EXPECT_EQ(quiet.output.find("never launched"), std::string::npos) << quiet.output;
    const test::CommandResult verbose = run_command("OPTIML_VERBOSE=1 " + quote(dir / "program"));
    EXPECT_EQ(verbose.exit_code, 0) << verbose.output;
    EXPECT_NE(verbose.output.find("optiml: scale_matrix: this run never launched the kernel "
                                  "through optiml::scale_matrix() or "
                                  "optiml::scale_matrix_launch(), so its tuned variants never "
                                  "ran; a <<<>>> launch left in the program runs the original "
                                  "kernel"),
              std::string::npos)
        << verbose.output;
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace optiml::codegen
