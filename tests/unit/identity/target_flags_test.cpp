// The user's build as the spec carries it: which include folders enter the key (relative to the
// project's trees) and which are only searched; the target's flags choose the compiler and
// change the key; a parameter among template arguments names each variant's kernel.
#include "driver/identity/target_flags.h"

#include <gtest/gtest.h>

#include "driver/identity/compiler_choice.h"
#include "driver/identity/kernel_key.h"
#include "driver/tune/candidate_evaluator.h"

namespace optiml::identity {
namespace {
namespace fs = std::filesystem;

const fs::path kData = fs::path(OPTIML_SOURCE_DIR) / "tests/unit/codegen/data";

TEST(TargetFlags, ProjectFoldersEnterTheKeyRelativeToTheirTree) {
    compile::BuildFlags build;
    build.options = {"-DNDEBUG", "-G"};
    build.include_dirs = {"/src/common", "/src/build/generated", "/src/build/optiml/app/include",
                          "/opt/optiml/include"};
    build.relocatable = true;
    const spec::TargetFlags flags =
        identity::to_target_flags(build, {"/src/build/compile_commands.json", "/src", "/src/build",
                                          "/src/build/optiml/app/include"});
    EXPECT_EQ(flags.key_options, (std::vector<std::string>{"-DNDEBUG", "-G", "-Icommon",
                                                           "-I<build>/generated", "-rdc=true"}));
    // Every folder is searched; only the project's are scanned for headers to hash.
    EXPECT_EQ(flags.include_dirs, build.include_dirs);
    EXPECT_EQ(flags.project_include_dirs,
              (std::vector<fs::path>{"/src/common", "/src/build/generated"}));
    EXPECT_EQ(flags.options, build.options);
    EXPECT_TRUE(flags.relocatable);
}

// Found by fuzzing (tests/fuzz/compile_commands_fuzz.cpp): an include folder whose name is
// longer than the file system takes ended the build with a filesystem_error; it is only searched.
TEST(TargetFlags, AnIncludeFolderTooLongForTheFileSystemIsOnlySearched) {
    compile::BuildFlags build;
    build.include_dirs = {fs::path("/" + std::string(5000, 'a'))};
    const spec::TargetFlags flags =
        identity::to_target_flags(build, {"/b/compile_commands.json", "/src", "/b", ""});
    EXPECT_EQ(flags.outside_include_dirs, build.include_dirs);
    EXPECT_TRUE(flags.project_include_dirs.empty());
}

class TargetFlagsSpec : public ::testing::Test {
  protected:
    spec::Spec spec = spec::load_spec(kData / "scale_matrix.optiml.json");
    std::string key() const {
        return cache::compute_key(identity::key_inputs(spec, identity::scan_sources(spec), 90));
    }
};

TEST_F(TargetFlagsSpec, DefinitionsKeepNvrtcAndSeparableCompilationNeedsNvcc) {
    spec.target.options = {"-DNDEBUG", "-std=c++17"};
    spec.target.key_options = spec.target.options;
    EXPECT_EQ(identity::choose_compiler(spec, 90).backend, compile::Backend::Nvrtc);
    spec.target.relocatable = true;
    const identity::CompilerChoice choice = identity::choose_compiler(spec, 90);
    EXPECT_EQ(choice.backend, compile::Backend::Nvcc);
    EXPECT_EQ(choice.nvcc_flag, "-rdc=true");
    spec.target.relocatable = false;
    spec.target.options.push_back("--use_fast_math");
    EXPECT_EQ(identity::choose_compiler(spec, 90).nvcc_flag, "--use_fast_math");

    spec.compiler = "nvrtc";
    EXPECT_THROW(identity::choose_compiler(spec, 90), std::invalid_argument);
}

TEST_F(TargetFlagsSpec, TheFlagsReachTheRequestAndTheKey) {
    const std::string without = key();
    spec.target.options = {"-DNDEBUG", "-Dblock_size_x=128"};
    spec.target.key_options = spec.target.options;
    spec.target.include_dirs = {"/somewhere/include"};
    const std::string with = key();
    EXPECT_NE(with, without);
    // The kernel reads block_size_x, never NDEBUG: only the first can change what is compiled.
    const cache::KeyInputs inputs = identity::key_inputs(spec, identity::scan_sources(spec), 90);
    EXPECT_EQ(identity::key_summary(inputs)["build_options"],
              nlohmann::json::array({"-Dblock_size_x=128"}));

    const compile::CompileRequest request =
        identity::make_compile_request(spec, spec.default_config(), 90, compile::Output::Cubin);
    EXPECT_EQ(request.build_options, spec.target.options);
    EXPECT_EQ(request.include_dirs.back(), fs::path("/somewhere/include"));
    const compile::CompileResult compiled = compile::compile(request);
    EXPECT_TRUE(compiled.ok) << compiled.log;
}

TEST_F(TargetFlagsSpec, AParameterAmongTemplateArgumentsNamesEachVariantsKernel) {
    spec.kernel = "scale<block_size_x, (block_size_x_2)>";
    const compile::CompileRequest request =
        identity::make_compile_request(spec, {{"block_size_x", 64}}, 90, compile::Output::Cubin);
    EXPECT_EQ(request.name_expression, "scale<64, (block_size_x_2)>");
}

}  // namespace
}  // namespace optiml::identity
