#include <iostream>

#include "driver/cli/commands.h"
#include "driver/profile/app_profile_command.h"
#include "driver/spec/spec.h"
#include "driver/tune/gpu_lock.h"
#include "driver/tune/spec_profile.h"

namespace optiml::cli {

void add_profile_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "profile", "Evidence report of one kernel variant (--spec), or hot kernels of a program");
    auto options = std::make_shared<tune::SpecProfileOptions>();
    auto spec = std::make_shared<std::string>();
    auto cache_dir = std::make_shared<std::string>();
    auto json = std::make_shared<std::string>();
    auto markdown = std::make_shared<std::string>();
    auto seeds = std::make_shared<std::vector<std::string>>();
    auto program = std::make_shared<std::vector<std::string>>();
    command->add_option("--spec", *spec, "Kernel spec (JSON)")->check(CLI::ExistingFile);
    command->add_option("program", *program, "A program and its arguments, after --");
    command
        ->add_option("--variant", options->variant,
                     "original, tuned, or parameters NAME=VALUE,NAME=VALUE")
        ->capture_default_str();
    command->add_option("--device", options->device, "CUDA device index")->capture_default_str();
    command->add_option("--cache-dir", *cache_dir, "Local cache (tuned entries, device ceilings)");
    command->add_option("--seed", *seeds, "Seed cache to look the tuned entry up in too");
    auto build_dir = std::make_shared<std::string>();
    command
        ->add_option("--build-dir", *build_dir,
                     "A build folder of the project: profile the kernel as that build compiles "
                     "it (its target's flags), and look its tuned entry up under that build's key")
        ->check(CLI::ExistingDirectory);
    command->add_option("--json", *json, "Write the evidence as JSON to this file");
    command->add_option("--markdown", *markdown, "Write the evidence as Markdown to this file");
    command->add_flag("!--no-counters", options->counters, "Skip the Range Profiler counters");
    command->add_flag("!--no-pc-sampling", options->pc_sampling, "Skip PC sampling");
    command->add_flag("--run-only", options->run_only,
                      "Only verify and time the variant (for an outside profiler such as ncu)");
    command->callback([=] {
        if (!program->empty() && !spec->empty()) {
            std::cerr << "optiml: error: give either --spec <file> or -- <program>, not both\n";
            exit_status() = 2;
            return;
        }
        if (!program->empty()) {  // the whole program: hot kernels by share of GPU time
            exit_status() = profile::run_profile_app_command(*program, *json, std::cout);
            return;
        }
        if (spec->empty()) {
            std::cerr << "optiml: error: profile needs --spec <file> or -- <program> [args]\n";
            exit_status() = 2;
            return;
        }
        options->spec = *spec;
        options->cache_dir = *cache_dir;
        options->build_dir = *build_dir;
        options->json_out = *json;
        options->markdown_out = *markdown;
        for (const auto& seed : *seeds) options->seeds.emplace_back(seed);
        try {
            tune::GpuLock lock;
            exit_status() = tune::run_spec_profile(*options, std::cout, std::cerr);
        } catch (const std::exception& e) {
            std::cerr << "optiml: error: " << e.what() << "\n";
            exit_status() = 1;
        }
    });
}

}  // namespace optiml::cli
