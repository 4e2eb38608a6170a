#include "driver/base/atomic_write.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "driver/base/scratch_dir.h"

namespace optiml::base {
namespace {
namespace fs = std::filesystem;

std::string read(const fs::path& file) {
    std::ifstream stream(file);
    std::stringstream text;
    text << stream.rdbuf();
    return text.str();
}

TEST(AtomicWrite, LeavesOnlyTheFinalFile) {
    const ScratchDir dir;
    const fs::path file = dir.path() / "out.json";
    ASSERT_EQ(try_write_file_atomically(file, "first"), "");
    ASSERT_EQ(try_write_file_atomically(file, "second"), "");
    EXPECT_EQ(read(file), "second");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(AtomicWrite, GivesTheFileThePermissionsOfAPlainCreate) {
    const ScratchDir dir;
    const fs::path file = dir.path() / "out.json";
    const mode_t mask = ::umask(022);
    write_file_atomically(file, "text");
    ::umask(mask);
    struct stat status {};
    ASSERT_EQ(::stat(file.c_str(), &status), 0);
    EXPECT_EQ(status.st_mode & 0777, 0644u);
}

TEST(AtomicWrite, IntoAMissingFolderSaysWhichFileAndWhy) {
    const ScratchDir dir;
    const fs::path file = dir.path() / "missing" / "out.json";
    const std::string error = try_write_file_atomically(file, "text");
    EXPECT_NE(error.find(file.string()), std::string::npos) << error;
    EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;
    EXPECT_THROW(write_file_atomically(file, "text"), std::runtime_error);
    EXPECT_FALSE(fs::exists(dir.path() / "missing"));
}

}  // namespace
}  // namespace optiml::base
