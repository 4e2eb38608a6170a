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
    std::ofstream(dir / "includes.rsp") << "-I\"inc dir\" -DFROM_FILE -I second -DLAST\n";
    const BuildFlags flags =
        parse_nvcc_command({{"nvcc", "--options-file", "includes.rsp", "-G", "k.cu"}, dir});
    // In the file's order (they were inserted reversed: "-I second" became "second -I" and -I
    // took the next word).
    EXPECT_EQ(flags.include_dirs, (std::vector<fs::path>{dir / "inc dir", dir / "second"}));
    EXPECT_EQ(flags.options, (Words{"-DFROM_FILE", "-DLAST", "-G"}));
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

// Found by fuzzing (tests/fuzz/compile_commands_fuzz.cpp): each of these databases ended the
// process (a nlohmann type_error, std::out_of_range from std::stoi, a filesystem_error) or gave an
// error without the database's name, instead of one BuildFlagsError naming the database and the
// entry's field.
TEST(CompileDatabase, MalformedEntriesFoundByFuzzingNameTheDatabaseAndField) {
    const fs::path dir = fs::temp_directory_path() / "optiml_compile_db_fuzz_test";
    fs::create_directories(dir);
    const fs::path database = dir / "compile_commands.json";
    const auto error_of = [&](const std::string& text) {
        std::ofstream(database) << text;
        try {
            const auto command = find_compile_command(database, "/s/k.cu");
            if (command) parse_nvcc_command(*command);
        } catch (const BuildFlagsError& e) {
            const std::string message = e.what();
            if (!message.starts_with(database.string())) return "(unnamed) " + message;
            return message.substr(database.string().size());
        }
        return std::string("(accepted)");
    };
    EXPECT_EQ(error_of(R"([{"directory": 5, "file": "/s/k.cu", "command": "nvcc"}])"),
              ": [0].directory: got 5; expected a folder (string)");
    EXPECT_EQ(error_of(R"([{"directory": "/b", "file": ["/s/k.cu"], "command": "nvcc"}])"),
              ": [0].file: got an array; expected a path");
    EXPECT_EQ(error_of(R"([{"directory": "/b", "file": "/s/k.cu", "arguments": "nvcc -c"}])"),
              ": [0].arguments: got the string \"nvcc -c\"; expected an array of the command's "
              "words");
    EXPECT_EQ(error_of(R"([{"directory": "/b", "file": "/s/k.cu", "arguments": ["nvcc", 1]}])"),
              ": [0].arguments[1]: got 1; expected a word of the command (string)");
    EXPECT_EQ(error_of(R"([{"directory": "/b", "file": "/s/k.cu", "command": "nvcc -DX=\"a"}])"),
              ": [0].command: unterminated \" in the command: nvcc -DX=\"a; expected a command "
              "line as a POSIX shell splits it");
    // A name longer than the file system takes is only a file no entry names.
    EXPECT_EQ(error_of(R"([{"directory": "/b", "file": "/)" + std::string(5000, 'a') +
                       R"(", "command": "nvcc"}])"),
              "(accepted)");
    fs::remove(database);
    try {
        parse_nvcc_command({{"nvcc", "-arch=sm_99999999999", "k.cu"}, "/b"});
        FAIL() << "expected an error";
    } catch (const BuildFlagsError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "the compile command names the architecture sm_99999999999, whose number nvcc "
                  "does not know");
    }
    // An options file that names itself.
    std::ofstream(dir / "self.rsp") << "-DA --options-file self.rsp\n";
    try {
        parse_nvcc_command({{"nvcc", "--options-file", "self.rsp", "k.cu"}, dir});
        FAIL() << "expected an error";
    } catch (const BuildFlagsError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "the compile command reads more than 64 options files (does one name itself?)");
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
