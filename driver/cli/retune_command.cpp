// `optiml retune --build-dir <dir>`: re-tunes every kernel a build declared and writes the
// regression report (driver/retune/retune.h).
#include <iostream>

#include "cache/build_cache.h"
#include "cache/remote_config.h"
#include "driver/cli/commands.h"
#include "driver/retune/retune.h"

namespace optiml::cli {

void add_retune_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "retune",
        "Re-tune every kernel a build declared on this machine's GPUs, compare each new winner "
        "with the cached one side by side, and write a regression report");
    auto options = std::make_shared<retune::RetuneOptions>();
    command
        ->add_option("--build-dir", options->build_dir,
                     "The project's build folder (its optiml-kernels/ lists the kernels)")
        ->required()
        ->check(CLI::ExistingDirectory);
    command->add_option("--report-dir", options->report_dir,
                        "Where retune-report.json and .md go (default: <build dir>/optiml-retune)");
    command
        ->add_option("--fail-on-regression", options->fail_on_regression,
                     "Exit with status 2 when a kernel got slower by more than this many percent, "
                     "beyond the measured intervals")
        ->check(CLI::NonNegativeNumber);
    command
        ->add_option("--replay", options->replays,
                     "A recording (docs/replay.md) standing in for the GPU of the kernel it names "
                     "(repeatable)")
        ->check(CLI::ExistingFile);
    command->add_option("--budget-evaluations", options->budget_evaluations,
                        "Override the build's and the specs' budgets");
    command->add_option("--budget-seconds", options->budget_seconds,
                        "Override the build's and the specs' budgets");
    auto publish = std::make_shared<bool>(false);
    auto remote_url = std::make_shared<std::string>();
    command->add_flag("--publish", *publish,
                      "Publish each new winner to the remote cache, replacing what it holds under "
                      "that key, signed with $OPTIML_SIGNING_KEY");
    command->add_option("--remote-cache", *remote_url,
                        "Remote cache URL for --publish (default: $OPTIML_REMOTE_CACHE)");
    command->callback([=] {
        try {
            options->llm = llm::llm_config_from_environment();
        } catch (const std::exception& e) {
            std::cerr << "optiml: error: " << e.what() << "\n";
            exit_status() = 1;
            return;
        }
        if (*publish) {
            try {
                cache::required_signing_key();
                options->publish = cache::remote_publisher(
                    cache::required_remote_config(*remote_url, "read-write"));
            } catch (const std::exception& e) {
                std::cerr << "optiml: error: --publish: " << e.what() << "\n";
                exit_status() = 1;
                return;
            }
        }
        exit_status() = retune::run_retune(*options, std::cout);
    });
}

}  // namespace optiml::cli
