// `optiml capture --source <file.cu>... [--kernel <name>]... [--output-dir <dir>] [--snapshot]
// [--snapshot-limit <MiB>] [--force] -- <program> [args...]`: specs from a program's real kernel
// launches (driver/init/app_capture_command.h).
#include <iostream>

#include "driver/cli/commands.h"
#include "driver/init/app_capture_command.h"

namespace optiml::cli {

void add_capture_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "capture",
        "Run a program and write specs that tune its hot kernels on their real launches");
    auto options = std::make_shared<init::CaptureOptions>();
    auto sources = std::make_shared<std::vector<std::string>>();
    auto output_dir = std::make_shared<std::string>(".");
    auto limit_mib = std::make_shared<std::uint64_t>(1024);
    command->add_option("program", options->program, "A program and its arguments, after --");
    command->add_option("--source", *sources,
                        "A file that defines kernels the program launches (repeatable)");
    command->add_option("--kernel", options->kernels,
                        "A kernel to write a spec for, instead of the hot ones (repeatable)");
    command->add_option("--output-dir", *output_dir, "Where the specs go (created if missing)")
        ->capture_default_str();
    command->add_flag("--snapshot", options->snapshot,
                      "Also store the data each pointer argument held before the launch, and fill "
                      "the inputs from it");
    command
        ->add_option("--snapshot-limit", *limit_mib,
                     "The most MiB one allocation's snapshot may take")
        ->capture_default_str();
    command->add_flag("--force", options->force, "Overwrite existing specs");
    command->callback([=] {
        options->sources.assign(sources->begin(), sources->end());
        options->output_dir = *output_dir;
        options->snapshot_limit_bytes = *limit_mib << 20;
        exit_status() = init::run_capture_command(*options, std::cout, std::cerr);
    });
}

}  // namespace optiml::cli
