// The user's build as compile_commands.json records it: words split as a shell splits them, the
// nvcc command reduced to what shapes device code.
#include "driver/compile/build_flags.h"

#include <gtest/gtest.h>

#include <fstream>

namespace optiml::compile {
namespace {
namespace fs = std::filesystem;

using Words = std::vector<std::string>;

// The command CMake 3.25 writes for a target with CUDA_SEPARABLE_COMPILATION, four
// architectures, COMPILE_OPTIONS for CUDA, a quoted definition and a Release build.
const std::string kCMakeCommand =
    "/usr/bin/ccache /usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DBAR "
    "-DFOO=\"\\\"a b\\\"\" -I\"/src/a dir\" -Icommon -isystem /opt/inc -G -O3 -DNDEBUG "
    "--generate-code=arch=compute_75,code=[compute_75,sm_75] "
    "--generate-code=arch=compute_90,code=[compute_90,sm_90] -lineinfo --use_fast_math "
    "-Xptxas=-v -Xcompiler=-fPIC -std=c++17 -x cu -rdc=true -MD -MT main.cu.o -MF main.cu.o.d "
    "-c /src/main.cu -o CMakeFiles/app.dir/main.cu.o";

TEST(ShellWords, SplitsQuotesAndEscapesAsAShellDoes) {
    EXPECT_EQ(split_shell_words(R"(a "b c" 'd e' f\ g "h\"i" "j\k")"),
              (Words{"a", "b c", "d e", "f g", "h\"i", "j\\k"}));
    EXPECT_EQ(split_shell_words("  x\t\ty  "), (Words{"x", "y"}));
    EXPECT_EQ(split_shell_words("\"\""), (Words{""}));
    EXPECT_THROW(split_shell_words("a \"b"), BuildFlagsError);
}

TEST(NvccCommand, KeepsDeviceFlagsAndLeavesHostOnesOut) {
    const BuildFlags flags = parse_nvcc_command({split_shell_words(kCMakeCommand), "/build"});
    EXPECT_EQ(flags.options, (Words{"-DBAR", "-DFOO=\"a b\"", "-G", "-DNDEBUG", "-lineinfo",
                                    "--use_fast_math", "-Xptxas=-v", "-std=c++17"}));
    EXPECT_EQ(flags.include_dirs,
              (std::vector<fs::path>{"/src/a dir", "/build/common", "/opt/inc"}));
    EXPECT_TRUE(flags.relocatable);
    EXPECT_EQ(flags.archs, (std::vector<int>{75, 90}));
    // Host-only options are reported, not silently lost.
    EXPECT_NE(std::find(flags.ignored.begin(), flags.ignored.end(), "-O3"), flags.ignored.end());
    EXPECT_NE(std::find(flags.ignored.begin(), flags.ignored.end(), "-Xcompiler=-fPIC"),
              flags.ignored.end());
}

TEST(NvccCommand, ReadsSpacedValuesArchFormsAndWholeProgramBuilds) {
    const BuildFlags flags =
        parse_nvcc_command({{"nvcc", "-arch=sm_86", "-gencode", "arch=compute_120,code=sm_120",
                             "-D", "X=1", "-maxrregcount", "64", "-I", "inc", "-c", "k.cu"},
                            "/b"});
    EXPECT_EQ(flags.archs, (std::vector<int>{86, 120}));
    EXPECT_EQ(flags.options, (Words{"-DX=1", "-maxrregcount=64"}));
    EXPECT_EQ(flags.include_dirs, (std::vector<fs::path>{"/b/inc"}));
    EXPECT_FALSE(flags.relocatable);
}

TEST(NvccCommand, RejectsWhatItCannotRead) {
    EXPECT_THROW(parse_nvcc_command({{"clang++", "-x", "cuda", "k.cu"}, "/b"}), BuildFlagsError);
    EXPECT_THROW(parse_nvcc_command({{"nvcc", "-c", "k.cu", "-Xptxas"}, "/b"}), BuildFlagsError);
    try {
        parse_nvcc_command({{"nvcc", "-arch=native", "k.cu"}, "/b"});
        FAIL() << "expected an error";
    } catch (const BuildFlagsError& e) {
        EXPECT_NE(std::string(e.what()).find("CUDA_ARCHITECTURES"), std::string::npos) << e.what();
    }
}

TEST(NvccCommand, FollowsAnOptionsFile) {
    const fs::path dir = fs::temp_directory_path() / "optiml_build_flags_test";
    fs::create_directories(dir);
    std::ofstream(dir / "includes.rsp") << "-I\"inc dir\" -DFROM_FILE\n";
    const BuildFlags flags =
        parse_nvcc_command({{"nvcc", "--options-file", "includes.rsp", "-G", "k.cu"}, dir});
    EXPECT_EQ(flags.include_dirs, (std::vector<fs::path>{dir / "inc dir"}));
    EXPECT_EQ(flags.options, (Words{"-DFROM_FILE", "-G"}));
    fs::remove_all(dir);
}

TEST(CompileDatabase, FindsTheEntryOfAFileByEitherForm) {
    const fs::path dir = fs::temp_directory_path() / "optiml_compile_db_test";
    fs::create_directories(dir);
    std::ofstream(dir / "compile_commands.json")
        << R"([{"directory": "/b", "command": "nvcc -DA=\"x y\" -c /s/one.cu", "file": "/s/one.cu"},
               {"directory": "/b", "arguments": ["nvcc", "-DB", "-c", "two.cu"], "file": "../s/two.cu"}])";
    const auto one = find_compile_command(dir / "compile_commands.json", "/s/one.cu");
    ASSERT_TRUE(one);
    EXPECT_EQ(one->words, (Words{"nvcc", "-DA=x y", "-c", "/s/one.cu"}));
    EXPECT_EQ(one->directory, "/b");
    const auto two = find_compile_command(dir / "compile_commands.json", "/s/two.cu");
    ASSERT_TRUE(two);
    EXPECT_EQ(two->words[1], "-DB");
    EXPECT_FALSE(find_compile_command(dir / "compile_commands.json", "/s/three.cu"));

    std::ofstream(dir / "broken.json") << "[{";
    try {
        find_compile_command(dir / "broken.json", "/s/one.cu");
        FAIL() << "expected an error";
    } catch (const BuildFlagsError& e) {
        EXPECT_NE(std::string(e.what()).find("broken.json"), std::string::npos) << e.what();
    }
    fs::remove_all(dir);
}

TEST(NvrtcReproduces, OnlyDefinesAndTheStandard) {
    for (const char* option : {"-DX=1", "-UNDEBUG", "-std=c++17"})
        EXPECT_TRUE(nvrtc_reproduces(option)) << option;
    for (const char* option : {"-G", "--use_fast_math", "-Xptxas=-O1", "-lineinfo"})
        EXPECT_FALSE(nvrtc_reproduces(option)) << option;
}

}  // namespace
}  // namespace optiml::compile
