// optiml: tunes CUDA kernels at build time. `optiml --help` lists the subcommands.
#include <iostream>

#include "driver/cli/commands.h"
#include "driver/identity/version.h"

int main(int argc, char** argv) {
    CLI::App app{"OptiML: build-time CUDA kernel tuning with a content-addressed cache"};
    app.set_version_flag("--version", optiml::identity::kVersion);
    app.require_subcommand(1);
    optiml::cli::add_build_command(app);
    optiml::cli::add_tune_command(app);
    optiml::cli::add_cache_command(app);
    optiml::cli::add_explain_command(app);
    optiml::cli::add_init_command(app);
    optiml::cli::add_capture_command(app);
    optiml::cli::add_retune_command(app);
    optiml::cli::add_report_command(app);
    optiml::cli::add_synth_command(app);
    optiml::cli::add_devices_command(app);
    optiml::cli::add_profile_command(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return optiml::cli::report_parse_error(app, e, std::cout, std::cerr);
    }
    return optiml::cli::exit_status();
}
