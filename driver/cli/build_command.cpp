#include <iostream>
#include <sstream>

#include "driver/build/kernel_build.h"
#include "driver/cli/commands.h"
#include "driver/cli/llm_options.h"
#include "driver/cli/strategy_option.h"

namespace optiml::cli {

int& exit_status() {
    static int status = 0;
    return status;
}

namespace {

std::vector<int> parse_archs(const std::string& text) {
    std::vector<int> archs;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (item.empty()) continue;
        if (item.rfind("sm_", 0) == 0) item = item.substr(3);
        std::size_t used = 0;
        int arch = 0;
        try {
            arch = std::stoi(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != item.size() || arch < 30)
            throw CLI::ValidationError(
                "--archs", "'" + item + "' is not an architecture; expected numbers like 90,80");
        archs.push_back(arch);
    }
    return archs;
}

}  // namespace

void add_build_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "build",
        "Look up (or tune) a kernel for each architecture and generate its launcher "
        "(what CMake's optiml_optimize_kernel() runs)");
    auto options = std::make_shared<build::BuildOptions>();
    auto archs = std::make_shared<std::string>();
    auto mode = std::make_shared<std::string>("auto");
    auto llm = std::make_shared<llm::LlmOverrides>();
    command->add_option("--spec", options->spec, "Kernel spec (JSON)")
        ->required()
        ->check(CLI::ExistingFile);
    command->add_option("--archs", *archs,
                        "Architectures, comma-separated (90,80); default: those of the target's "
                        "compile command (--compile-commands)");
    command->add_option("--mode", *mode, "auto | cache-only | retune | off")
        ->check(CLI::IsMember({"auto", "cache-only", "retune", "off"}));
    command
        ->add_option("--out", options->out_dir,
                     "Folder for include/optiml/<name>.h and optiml_<name>.cu")
        ->required();
    command->add_option("--depfile", options->depfile, "Write a Makefile-style depfile here");
    command->add_option(
        "--cache-dir", options->cache_dir,
        "Local cache (default: $OPTIML_CACHE_DIR, $XDG_CACHE_HOME/optiml, ~/.cache/optiml)");
    command->add_option("--seed", options->seeds, "Read-only seed cache folder (repeatable)");
    command->add_option("--remote-cache", options->remote_cache,
                        "Remote cache URL, Bazel HTTP protocol (default: $OPTIML_REMOTE_CACHE)");
    command
        ->add_option("--remote-cache-mode", options->remote_cache_mode,
                     "read (never upload) | read-write (publish what is tuned); default: "
                     "$OPTIML_REMOTE_CACHE_MODE, else read")
        ->check(CLI::IsMember({"read", "read-write"}));
    command->add_option("--trusted-keys", options->trusted_keys,
                        "Trusted-keys file beyond each seed's trusted-keys.txt (repeatable)");
    command->add_option("--budget-evaluations", options->budget_evaluations,
                        "Override the spec's budget");
    command->add_option("--budget-seconds", options->budget_seconds, "Override the spec's budget");
    command->add_option("--strategy", options->strategy, "Override the spec's budget.strategy")
        ->check(strategy_name());
    command
        ->add_option("--host-compiler", options->host_compiler,
                     "C++ compiler for the spec's check.compare function and input generators "
                     "(CMake passes CMAKE_CXX_COMPILER)")
        ->capture_default_str();
    command->add_option("--manifest", options->manifest,
                        "Write this kernel's build manifest file here (what `optiml retune` "
                        "reads; CMake passes <build dir>/optiml-kernels/<target>.<name>.json)");
    add_llm_options(*command, *llm);
    command->add_option("--compile-commands", options->compile_commands,
                        "The build's compile_commands.json: the kernel is compiled (and the "
                        "original measured) with its file's flags and architectures");
    command->add_option("--source-root", options->source_root,
                        "The project's source tree (include folders under it enter the key)");
    command->add_option("--build-root", options->build_root,
                        "The project's build tree (include folders under it enter the key)");
    command->callback([=] {
        options->archs = parse_archs(*archs);
        if (options->archs.empty() && options->compile_commands.empty())
            throw CLI::ValidationError("--archs",
                                       "required without --compile-commands (e.g. --archs 90)");
        options->mode = *build::parse_mode(*mode);
        options->llm_flags = *llm;  // recorded for retune, whatever the mode
        try {
            // Only a tuning talks to the LLM: a cache-only or off build ignores its settings.
            if (options->mode == build::Mode::Auto || options->mode == build::Mode::Retune)
                options->llm = llm::resolve_config(*llm);
            exit_status() = build::run_build(*options, std::cout);
        } catch (const std::exception& e) {
            std::cout << "optiml: error: " << e.what() << "\n";
            exit_status() = 1;
        }
    });
}

}  // namespace optiml::cli
