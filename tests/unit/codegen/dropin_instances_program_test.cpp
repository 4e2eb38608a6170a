// The drop-in form of tile_fill<tile_size> compiled by nvcc and linked into a program. On any
// machine: the generated .cu compiles with an instantiation per block (kernel in its own file, and
// kernel among host code with the original's images at two of its three tiles). On a GPU (else
// skipped): each block the program holds runs its own instantiation and fills the matrix right,
// every other block is refused with cudaErrorInvalidConfiguration, writes nothing, and is said
// once.
#include <gtest/gtest.h>

#include <regex>

#include "driver/codegen/launcher.h"
#include "tests/unit/codegen/test_support.h"

namespace optiml::codegen {
namespace {

using test::quote;
using test::run_command;

const std::string nvcc_program = OPTIML_NVCC;

// The original at `tile` as OptiML compiles it for a kernel among host code: CUBIN and PTX.
Variant original_at(const std::filesystem::path& dir, int tile) {
    const std::filesystem::path source = dir / ("instantiate_" + std::to_string(tile) + ".cu");
    test::write_file(source, "#include \"" + (test::data_dir() / "tile_fill.cu").string() +
                                 "\"\ntemplate __global__ void tile_fill<" + std::to_string(tile) +
                                 ">(int*, int);\n");
    const std::filesystem::path cubin = dir / ("tile_" + std::to_string(tile) + ".cubin");
    const std::filesystem::path ptx = dir / ("tile_" + std::to_string(tile) + ".ptx");
    const test::CommandResult built = run_command(
        nvcc_program + " -cubin -arch=sm_90 -o " + quote(cubin) + " " + quote(source) + " && " +
        nvcc_program + " -ptx -arch=compute_90 -o " + quote(ptx) + " " + quote(source));
    EXPECT_EQ(built.exit_code, 0) << built.output;
    Variant original;
    original.arch = "sm_90";
    original.winner.parameters = {{"tile_size", tile}};
    original.cubin = test::read_file(cubin);
    original.ptx = test::read_file(ptx);
    std::smatch entry;
    EXPECT_TRUE(
        std::regex_search(original.ptx, entry, std::regex(R"(\.entry\s+([A-Za-z0-9_$]+))")));
    original.lowered_name = entry.size() > 1 ? entry[1].str() : "";
    original.compiler = "nvcc";
    return original;
}

// Generates, builds and runs the program; returns its output. Skips the test without a GPU.
struct ProgramRun {
    int exit_code;
    std::string output;
};
ProgramRun build_and_run(const std::string& label, const spec::Spec& spec,
                         const std::vector<Variant>& originals, const std::string& held) {
    const std::filesystem::path dir = test::fresh_directory(label);
    write_generated_files(dir, spec.name, generate_launcher(spec, {}, {}, originals));
    const test::CommandResult build = run_command(
        nvcc_program + " -arch=sm_90 -std=c++20 -Xcompiler=-Wall,-Wextra,-Werror -I" +
        quote(OPTIML_RUNTIME_INCLUDE) + " -I" + quote(dir / "include") + " " +
        quote(dir / source_path(spec.name)) + " " + quote(test::data_dir() / "call_tile_fill.cpp") +
        " " + test::runtime_library_arguments() + " -o " + quote(dir / "program"));
    EXPECT_EQ(build.exit_code, 0) << build.output;
    if (build.exit_code != 0) return {1, build.output};
    const test::CommandResult run = run_command(quote(dir / "program") + " " + held);
    std::filesystem::remove_all(dir);
    return {run.exit_code, run.output};
}

void expect_refusals_said_once(const std::string& output, const std::string& why) {
    const std::regex said(
        "optiml: optiml::tile_fill_launch: block 20x20x1 is the block of none of");
    EXPECT_EQ(std::distance(std::sregex_iterator(output.begin(), output.end(), said),
                            std::sregex_iterator()),
              1)
        << output;
    EXPECT_NE(output.find(why), std::string::npos) << output;
}

TEST(DropInInstancesProgram, KernelInItsOwnFileRunsTheInstantiationOfEachBlock) {
    const ProgramRun run = build_and_run(
        "tile_fill_included", test::load_fixture("tile_fill.optiml.json"), {}, "8,16,32");
    if (run.exit_code == 77) GTEST_SKIP() << "no GPU: " << run.output;
    EXPECT_EQ(run.exit_code, 0) << run.output;
    expect_refusals_said_once(run.output, "nothing launched (cudaErrorInvalidConfiguration)");
}

TEST(DropInInstancesProgram, KernelAmongHostCodeRunsTheInstantiationsItHoldsAndRefusesOthers) {
    spec::Spec spec = test::load_fixture("tile_fill.optiml.json");
    spec.compiler = "nvcc";
    const std::filesystem::path images = test::fresh_directory("tile_fill_originals");
    const std::vector<Variant> originals = {original_at(images, 32), original_at(images, 16)};
    std::filesystem::remove_all(images);
    const ProgramRun run = build_and_run("tile_fill_host", spec, originals, "16,32");
    if (run.exit_code == 77) GTEST_SKIP() << "no GPU: " << run.output;
    EXPECT_EQ(run.exit_code, 0) << run.output;
    expect_refusals_said_once(run.output,
                              "block 8x8x1 is tile_fill<8>'s, which this program "
                              "does not hold");
}

}  // namespace
}  // namespace optiml::codegen
