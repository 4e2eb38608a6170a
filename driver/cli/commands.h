// The `optiml` subcommands. Each registers its options on the CLI11 app and runs when chosen.
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>

namespace optiml::cli {

void add_build_command(CLI::App& app);
void add_tune_command(CLI::App& app);
void add_cache_command(CLI::App& app);
void add_devices_command(CLI::App& app);
void add_profile_command(CLI::App& app);
void add_explain_command(CLI::App& app);
void add_init_command(CLI::App& app);
void add_capture_command(CLI::App& app);
void add_retune_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_synth_command(CLI::App& app);

// Exit status of the chosen subcommand (set by its callback).
int& exit_status();

// What a command line CLI11 refused prints, and the exit status: --help and --version as CLI11
// writes them (status 0); anything else (an unknown option, a value an option does not take) as
// one "optiml: error: <option>: <what is wrong>" line, status 2.
int report_parse_error(const CLI::App& app, const CLI::ParseError& error, std::ostream& out,
                       std::ostream& err);

}  // namespace optiml::cli
