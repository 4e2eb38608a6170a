#include "driver/compile/include_scanner.h"

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
    const auto files = scan_includes(root / "kernels" / "main.cu", {root / "include"}, root);
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

}  // namespace
}  // namespace optiml::compile
