// `optiml init` through its CLI11 command: writes the skeleton beside the source by default,
// names the source relative to the spec, and never overwrites a file without --force.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "driver/cli/commands.h"

namespace optiml::cli {
namespace {

namespace fs = std::filesystem;

int run_init(std::vector<std::string> arguments) {
    CLI::App app;
    add_init_command(app);
    arguments.insert(arguments.begin(), "init");
    std::vector<const char*> argv = {"optiml"};
    for (const std::string& a : arguments) argv.push_back(a.c_str());
    exit_status() = 0;
    app.parse(static_cast<int>(argv.size()), argv.data());
    return exit_status();
}

std::string read_text(const fs::path& path) {
    std::ifstream stream(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

TEST(InitCommand, WritesBesideTheSourceAndRefusesToOverwrite) {
    const fs::path dir =
        fs::temp_directory_path() / ("optiml_init_cli_" + std::to_string(getpid()));
    fs::create_directories(dir / "kernels");
    fs::copy_file(fs::path(OPTIML_SOURCE_DIR) / "tests/unit/init/data/scale.cu",
                  dir / "kernels/scale.cu", fs::copy_options::overwrite_existing);
    const std::string source = (dir / "kernels/scale.cu").string();
    ASSERT_EQ(run_init({source, "--kernel", "scale"}), 0);
    const fs::path spec = dir / "kernels/scale.optiml.json";
    EXPECT_NE(read_text(spec).find("\"source\": \"scale.cu\""), std::string::npos);

    std::ofstream(spec, std::ios::trunc) << "// mine\n";
    EXPECT_EQ(run_init({source, "--kernel", "scale"}), 1) << "an existing file is kept";
    EXPECT_EQ(read_text(spec), "// mine\n");
    EXPECT_EQ(run_init({source, "--kernel", "scale", "--force"}), 0);
    EXPECT_NE(read_text(spec).find("\"kernel\": \"scale\""), std::string::npos);

    const fs::path elsewhere = dir / "specs/scale.json";
    fs::create_directories(elsewhere.parent_path());
    ASSERT_EQ(run_init({source, "--kernel", "scale", "--output", elsewhere.string()}), 0);
    EXPECT_NE(read_text(elsewhere).find("\"source\": \"../kernels/scale.cu\""), std::string::npos);
    EXPECT_EQ(run_init({source, "--kernel", "absent", "--output", (dir / "x.json").string()}), 1);
    EXPECT_FALSE(fs::exists(dir / "x.json"));
    fs::remove_all(dir);
}

}  // namespace
}  // namespace optiml::cli
