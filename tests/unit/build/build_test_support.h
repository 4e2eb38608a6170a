// Shared by the `optiml build` tests: run a build that must succeed, read what it wrote.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "driver/build/kernel_build.h"

namespace optiml::build::test {

// The build's log; a failed build fails the test.
inline std::string successful_build(const build::BuildOptions& options) {
    std::ostringstream log;
    EXPECT_EQ(build::run_build(options, log), 0) << log.str();
    return log.str();
}

inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace optiml::build::test
