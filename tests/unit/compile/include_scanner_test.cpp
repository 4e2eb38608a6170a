#include "driver/compile/include_scanner.h"

#include <unistd.h>

#include <fstream>

#include <gtest/gtest.h>

namespace optiml::compile {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> relative_paths(const std::vector<ScannedFile>& files) {
    std::vector<std::string> paths;
    for (const auto& f : files) paths.push_back(f.relative_path);
    return paths;
}

TEST(IncludeScanner, FindsLocalHeadersRecursivelyOnceEach) {
    const fs::path root = fs::path(OPTIML_TEST_DATA) / "nested";
    const auto files = scan_includes(root / "kernels" / "main.cu", {{root / "include"}}, root);
    EXPECT_EQ(relative_paths(files),
              (std::vector<std::string>{"kernels/main.cu", "include/types.h", "kernels/common.h",
                                        "kernels/sub/detail.h"}));
    EXPECT_NE(files[1].contents.find("typedef float real"), std::string::npos);
}

TEST(IncludeScanner, WithoutTheIncludeDirectoryTheHeaderThereIsNotFound) {
    const fs::path root = fs::path(OPTIML_TEST_DATA) / "nested";
    const auto files = scan_includes(root / "kernels" / "main.cu", {}, root);
    EXPECT_EQ(
        relative_paths(files),
        (std::vector<std::string>{"kernels/main.cu", "kernels/common.h", "kernels/sub/detail.h"}));
}

// A project on disk: kernels/k.cu includes <helper_dev.h> from inc/, <cuda_runtime.h> from a
// toolkit folder, and <lib/util.h> from a library outside the project.
class AngleIncludes : public ::testing::Test {
  protected:
    fs::path root = fs::temp_directory_path() / ("optiml_angle_" + std::to_string(::getpid()));
    void SetUp() override {
        write("project/kernels/k.cu",
              "#include <cuda_runtime.h>\n#include <helper_dev.h>\n#include <lib/util.h>\n");
        write("project/inc/helper_dev.h", "__device__ float helper(float a) { return a; }\n");
        write("toolkit/include/cuda_runtime.h", "// the toolkit's\n");
        write("toolkit/include/helper_dev.h", "// shadowed by the project's, searched first\n");
        write("outside/lib/util.h", "#include \"detail.h\"\n");
        write("outside/lib/detail.h", "#define UTIL 1\n");
    }
    void TearDown() override { fs::remove_all(root); }
    void write(const std::string& relative, const std::string& text) {
        fs::create_directories((root / relative).parent_path());
        std::ofstream(root / relative) << text;
    }
    std::vector<ScannedFile> scan() {
        return scan_includes(root / "project/kernels/k.cu",
                             {{root / "project/inc"},
                              {root / "toolkit/include", false, false},
                              {root / "outside", true, false}},
                             root / "project");
    }
};

TEST_F(AngleIncludes, AreResolvedThroughTheIncludeFoldersAsTheCompilerDoes) {
    const auto files = scan();
    EXPECT_EQ(relative_paths(files),
              (std::vector<std::string>{"kernels/k.cu", "<include>/lib/detail.h",
                                        "<include>/lib/util.h", "inc/helper_dev.h"}));
    EXPECT_EQ(files[0].unscanned_includes, (std::vector<std::string>{"cuda_runtime.h"}));
    EXPECT_NE(files[3].contents.find("return a;"), std::string::npos);
}

TEST_F(AngleIncludes, AFolderNotScannedEndsTheSearchForThatName) {
    // The toolkit's folder first: the compiler would take its helper_dev.h, so nothing is hashed.
    const auto files = scan_includes(
        root / "project/kernels/k.cu",
        {{root / "toolkit/include", false, false}, {root / "project/inc"}}, root / "project");
    EXPECT_EQ(relative_paths(files), (std::vector<std::string>{"kernels/k.cu"}));
    EXPECT_EQ(files[0].unscanned_includes,
              (std::vector<std::string>{"cuda_runtime.h", "helper_dev.h", "lib/util.h"}));
}

}  // namespace
}  // namespace optiml::compile
