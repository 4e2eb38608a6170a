// `optiml synth`: its flags; tune/synthesize.h does the work.
#include <iostream>
#include <regex>

#include "driver/cli/commands.h"
#include "driver/cli/llm_options.h"
#include "driver/tune/synthesize.h"

namespace optiml::cli {

void add_synth_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "synth", "Synthesize a kernel and its spec from a request in words, by several models");
    auto options = std::make_shared<tune::SynthOptions>();
    command->add_option("request", options->request, "What the kernel must do")->required();
    command
        ->add_option("--reference", options->reference,
                     "A C++ function or existing kernel whose behaviour it must reproduce")
        ->required()
        ->check(CLI::ExistingFile);
    command->add_option("--name", options->name, "The kernel's name (a C++ identifier)")
        ->required()
        ->check([](const std::string& name) {
            return std::regex_match(name, std::regex("[A-Za-z_][A-Za-z0-9_]*"))
                       ? std::string()
                       : "'" + name + "' is not a C++ identifier";
        });
    command->add_option("--out", options->out, "Folder for <name>.cu and <name>.optiml.json")
        ->required();
    command->add_option("--llm-experts", options->experts,
                        "Models that draft, comma-separated (default $OPTIML_LLM_EXPERTS, else "
                        "the model)");
    command->add_option("--reference-entry", options->reference_entry,
                        "The function or kernel of --reference to run (default: its only one)");
    command
        ->add_option("--arch", options->arch,
                     "Architecture the compile check targets without a GPU (with one: its own)")
        ->capture_default_str();
    command->add_option("--cache-dir", options->cache_dir,
                        "Local cache, which records the exchanges (default rules as in `build`)");
    add_llm_options(*command, options->llm);
    command->callback([=] {
        try {
            exit_status() = tune::run_synth(*options, std::cout, std::cerr);
        } catch (const std::exception& e) {
            std::cerr << "optiml: error: " << e.what() << "\n";
            exit_status() = 1;
        }
    });
}

}  // namespace optiml::cli
