// Generated files are written where the build expects them, and only when they change.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "driver/codegen/launcher.h"
#include "tests/unit/codegen/test_support.h"

namespace optiml::codegen {
namespace {

TEST(WriteGeneratedFiles, WritesHeaderAndSourceAtTheirPaths) {
    const std::filesystem::path dir = test::fresh_directory("write");
    const GeneratedFiles files{"header text\n", "source text\n"};
    EXPECT_TRUE(write_generated_files(dir, "saxpy", files));
    EXPECT_EQ(test::read_file(dir / "include/optiml/saxpy.h"), files.header);
    EXPECT_EQ(test::read_file(dir / "optiml_saxpy.cu"), files.source);
    EXPECT_EQ(header_path("saxpy"), std::filesystem::path("include/optiml/saxpy.h"));
    EXPECT_EQ(source_path("saxpy"), std::filesystem::path("optiml_saxpy.cu"));
    std::filesystem::remove_all(dir);
}

TEST(WriteGeneratedFiles, LeavesUnchangedFilesUntouched) {
    const std::filesystem::path dir = test::fresh_directory("unchanged");
    const GeneratedFiles files{"header\n", "source\n"};
    ASSERT_TRUE(write_generated_files(dir, "k", files));
    const auto header_time = std::filesystem::last_write_time(dir / header_path("k"));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));

    EXPECT_FALSE(write_generated_files(dir, "k", files));
    EXPECT_EQ(std::filesystem::last_write_time(dir / header_path("k")), header_time);

    // Only the file whose content changed is rewritten.
    EXPECT_TRUE(write_generated_files(dir, "k", {"header\n", "new source\n"}));
    EXPECT_EQ(std::filesystem::last_write_time(dir / header_path("k")), header_time);
    EXPECT_EQ(test::read_file(dir / source_path("k")), "new source\n");
    // No temporary files are left behind.
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::recursive_directory_iterator(dir))
        ++entries;
    EXPECT_EQ(entries, 4u);  // include/, include/optiml/, the header, the source
    std::filesystem::remove_all(dir);
}

TEST(WriteGeneratedFiles, AnUnwritableFolderIsAnErrorNamingThePath) {
    const std::filesystem::path dir = test::fresh_directory("unwritable");
    test::write_file(dir / "include", "a file where a folder must go");
    try {
        write_generated_files(dir, "k", {"h", "s"});
        ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find((dir / "include").string()), std::string::npos)
            << error.what();
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace optiml::codegen
