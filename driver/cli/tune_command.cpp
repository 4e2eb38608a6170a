#include <iostream>

#include "driver/cli/commands.h"
#include "driver/cli/llm_options.h"
#include "driver/cli/replay_run.h"
#include "driver/cli/strategy_option.h"
#include "driver/tune/tune_spec.h"

namespace optiml::cli {

void add_tune_command(CLI::App& app) {
    auto* command =
        app.add_subcommand("tune", "Tune a kernel on a GPU of this machine and store the result");
    struct Options : tune::TuneOptions {
        std::string replay;
        std::uint64_t seed = 1;
        std::size_t in_flight = search::kMaxStreamingDepth;
        std::string baseline;
        std::string trace;
    };
    auto options = std::make_shared<Options>();
    command->add_option("--spec", options->spec, "Kernel spec (JSON)")->check(CLI::ExistingFile);
    command
        ->add_option("--build-dir", options->build_dir,
                     "A build folder of the project: tune the kernel as that build compiles it "
                     "(its target's flags, strategy and LLM settings) and store it under that "
                     "build's key")
        ->check(CLI::ExistingDirectory);
    command
        ->add_option("--replay", options->replay,
                     "Search a recorded space on the CPU instead (no GPU, no spec)")
        ->check(CLI::ExistingFile)
        ->excludes("--spec");
    command->add_option("--strategy", options->strategy, "Override the spec's budget.strategy")
        ->check(strategy_name());
    command->add_option("--seed", options->seed, "Seed of the search (with --replay)")
        ->capture_default_str()
        ->needs("--replay");
    command
        ->add_option("--in-flight", options->in_flight,
                     "Candidates in flight (with --replay): streams as tune does; 0 replays "
                     "batches of " +
                         std::to_string(search::kDefaultBatchSize))
        ->capture_default_str()
        ->needs("--replay");
    command
        ->add_option("--baseline", options->baseline,
                     "The baseline configuration (with --replay), name=value,name=value: where "
                     "the recording names no default, or another one")
        ->needs("--replay");
    command
        ->add_option("--trace", options->trace,
                     "Write the replay's trace as JSON to this file (with --replay)")
        ->needs("--replay");
    command->add_option("--device", options->device, "CUDA device index")->capture_default_str();
    command->add_option("--cache-dir", options->cache_dir,
                        "Local cache (default rules as in `build`)");
    command->add_option(
        "--budget-evaluations", options->evaluations,
        "Override the spec's budget (a replay's: " + std::to_string(kReplayEvaluations) + ")");
    command->add_option("--budget-seconds", options->seconds, "Override the spec's budget");
    command
        ->add_option("--host-compiler", options->host_compiler,
                     "C++ compiler for the spec's check.compare function and input generators")
        ->capture_default_str();
    command
        ->add_option("--reference", options->reference,
                     "Verify the kernel against this C++ function or kernel before tuning")
        ->check(CLI::ExistingFile);
    command
        ->add_option("--reference-entry", options->reference_entry,
                     "The function or kernel of --reference to run (default: its only one)")
        ->needs("--reference");
    add_llm_options(*command, options->llm);
    command->callback([=] {
        if (!options->replay.empty()) {
            ReplayOptions replay;
            replay.recording = options->replay;
            replay.strategy = options->strategy.value_or(replay.strategy);
            replay.evaluations = options->evaluations.value_or(replay.evaluations);
            replay.seed = options->seed;
            replay.in_flight = options->in_flight;
            replay.baseline = options->baseline;
            replay.trace = options->trace;
            exit_status() = run_replay(replay, std::cout, std::cerr);
            return;
        }
        if (options->spec.empty()) {
            std::cerr << "optiml: error: tune needs --spec (or --replay)\n";
            exit_status() = 1;
            return;
        }
        exit_status() = tune::run_tune(*options, std::cout, std::cerr);
    });
}

}  // namespace optiml::cli
