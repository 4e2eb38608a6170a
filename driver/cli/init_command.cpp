// `optiml init <file.cu> --kernel <name> [--output <spec.json>] [--force]`: writes a spec
// skeleton (driver/init/spec_skeleton.h) for a kernel, never over an existing file unless told.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "driver/cli/commands.h"
#include "driver/init/spec_skeleton.h"

namespace optiml::cli {
namespace {

namespace fs = std::filesystem;

int write_skeleton(const fs::path& source, const std::string& kernel, fs::path output, bool force) {
    std::ifstream stream(source, std::ios::binary);
    if (!stream.is_open()) {
        std::cerr << "optiml: error: " << source.string() << ": cannot be read\n";
        return 1;
    }
    const std::string text{std::istreambuf_iterator<char>(stream),
                           std::istreambuf_iterator<char>()};
    if (output.empty()) output = source.parent_path() / (kernel + ".optiml.json");
    if (fs::exists(output) && !force) {
        std::cerr << "optiml: error: " << output.string()
                  << " already exists; pass --force to overwrite it, or --output another file\n";
        return 1;
    }
    // The spec names its source relative to its own folder.
    const fs::path relative =
        fs::absolute(source).lexically_relative(fs::absolute(output).parent_path());
    const std::string skeleton = init::spec_skeleton(text, relative.generic_string(), kernel);
    std::ofstream(output, std::ios::binary | std::ios::trunc) << skeleton;
    const std::size_t markers = init::count_markers(skeleton);
    std::cout << "optiml: wrote " << output.string() << ": " << markers
              << " decisions left as \"TODO: ...\" (each explained by a comment); the spec is "
                 "rejected until every one is replaced\n";
    return 0;
}

}  // namespace

void add_init_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "init", "Write a spec skeleton for a kernel, with every decision left to make marked");
    auto source = std::make_shared<std::string>();
    auto kernel = std::make_shared<std::string>();
    auto output = std::make_shared<std::string>();
    auto force = std::make_shared<bool>(false);
    command->add_option("source", *source, "The kernel's source file")->required();
    command->add_option("--kernel", *kernel, "The __global__ function's name")->required();
    command->add_option("--output", *output,
                        "The spec to write (default: <kernel>.optiml.json beside the source)");
    command->add_flag("--force", *force, "Overwrite an existing file");
    command->callback([=] {
        try {
            exit_status() = write_skeleton(*source, *kernel, *output, *force);
        } catch (const std::exception& e) {
            std::cerr << "optiml: error: " << *source << ": " << e.what() << "\n";
            exit_status() = 1;
        }
    });
}

}  // namespace optiml::cli
