#include <iostream>

#include "cache/store.h"
#include "driver/cli/commands.h"
#include "driver/cli/llm_options.h"
#include "driver/cli/replay_run.h"
#include "driver/measure/worker_client.h"
#include "driver/search/strategy.h"
#include "driver/spec/kernel_source.h"
#include "driver/tune/compare_build.h"
#include "driver/tune/device_selection.h"
#include "driver/tune/kernel_identity.h"
#include "driver/tune/reference_check.h"
#include "driver/tune/tune_spec.h"

namespace optiml::cli {
namespace {

// --reference: the spec's kernel, at its defaults, against the reference before any tuning.
bool verified_against_reference(const spec::Spec& spec, const std::string& file,
                                const std::string& entry, const measure::DeviceInfo& device,
                                const std::string& host_compiler) {
    try {
        const tune::Reference reference = tune::read_reference(file, entry);
        const tune::ReferenceVerdict verdict =
            tune::verify_against_reference(spec, reference, device, host_compiler);
        if (!verdict.ok) {
            std::cerr << "optiml: error: " << spec.name << ": the kernel does not match the "
                      << "reference " << file << " (" << reference.entry
                      << "): " << verdict.describe() << "\n";
            return false;
        }
        std::cout << "optiml: " << spec.name << ": verified against the reference " << file << " ("
                  << reference.entry << ") on " << device.name << "\n";
        return true;
    } catch (const std::exception& e) {
        std::cerr << "optiml: error: " << e.what() << "\n";
        return false;
    }
}

}  // namespace

void add_tune_command(CLI::App& app) {
    auto* command =
        app.add_subcommand("tune", "Tune a kernel on a GPU of this machine and store the result");
    struct Options {
        std::string spec;
        std::string build_dir;
        int device = 0;
        std::string cache_dir;
        std::optional<int> evaluations;
        std::optional<double> seconds;
        std::string host_compiler = "c++";
        std::optional<std::string> strategy;
        std::string replay;
        std::uint64_t seed = 1;
        std::size_t in_flight = search::kMaxStreamingDepth;
        llm::LlmOverrides llm;
        std::string reference;
        std::string reference_entry;
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
        ->check(CLI::IsMember(search::strategy_names()));
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
    command->add_option("--device", options->device, "CUDA device index")->capture_default_str();
    command->add_option("--cache-dir", options->cache_dir,
                        "Local cache (default rules as in `build`)");
    command->add_option("--budget-evaluations", options->evaluations, "Override the spec's budget");
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
            exit_status() = run_replay({options->replay, options->strategy.value_or("auto"),
                                        options->evaluations.value_or(search::Budget{}.evaluations),
                                        options->seed, options->in_flight},
                                       std::cout, std::cerr);
            return;
        }
        if (options->spec.empty()) {
            std::cerr << "optiml: error: tune needs --spec (or --replay)\n";
            exit_status() = 1;
            return;
        }
        spec::Spec spec;
        llm::LlmConfig llm_config;
        try {  // before any GPU work: a bad spec, build folder or LLM setting is found at once
            tune::ResolvedKernel kernel = tune::resolve_kernel(options->spec, options->build_dir);
            spec = std::move(kernel.spec);
            llm_config = tune::build_llm_config(kernel, resolve_llm_config(options->llm));
        } catch (const std::exception& e) {
            std::cerr << "optiml: error: " << e.what() << "\n";
            exit_status() = 1;
            return;
        }
        for (const std::string& warning : spec::default_mismatches(spec))
            std::cerr << "optiml: warning: " << spec.name << ": " << warning << "\n";
        const auto probe = measure::probe_devices(measure::default_worker_path());
        const auto& devices = probe.devices;
        if (options->device < 0 || static_cast<std::size_t>(options->device) >= devices.size()) {
            std::cerr << "optiml: error: no CUDA device " << options->device << " on this machine ("
                      << devices.size() << " found"
                      << (devices.empty() ? ": " + probe.why_none() : std::string()) << ")\n";
            exit_status() = 2;
            return;
        }
        const auto& device = devices[static_cast<std::size_t>(options->device)];
        // --device times; OPTIML_DEVICES limits the GPUs of its model that verify beside it.
        std::vector<measure::DeviceInfo> allowed;
        try {
            allowed = tune::allowed_devices(devices, tune::device_list_from_environment());
        } catch (const tune::DeviceListError& e) {
            std::cerr << "optiml: error: " << e.what() << "\n";
            exit_status() = 1;
            return;
        }
        const std::filesystem::path cache_root = options->cache_dir.empty()
                                                     ? cache::default_cache_dir()
                                                     : std::filesystem::path(options->cache_dir);
        if (!options->reference.empty() &&
            !verified_against_reference(spec, options->reference, options->reference_entry, device,
                                        options->host_compiler)) {
            exit_status() = 1;
            return;
        }
        try {
            if (!tune::tune_and_store({&spec,
                                       device,
                                       allowed,
                                       {options->evaluations.value_or(spec.budget.evaluations),
                                        options->seconds.value_or(spec.budget.seconds),
                                        options->strategy.value_or(spec.budget.strategy)},
                                       options->host_compiler,
                                       cache_root,
                                       llm_config},
                                      std::cout))
                exit_status() = 1;
        } catch (const tune::CompareBuildError& e) {
            std::cerr << "optiml: error: " << e.what() << "\n";
            exit_status() = 1;
        }
    });
}

}  // namespace optiml::cli
