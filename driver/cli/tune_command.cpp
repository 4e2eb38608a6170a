#include <iostream>

#include "cache/store.h"
#include "driver/cli/commands.h"
#include "driver/cli/replay_run.h"
#include "driver/measure/worker_client.h"
#include "driver/search/strategy.h"
#include "driver/spec/kernel_source.h"
#include "driver/tune/compare_build.h"
#include "driver/tune/device_selection.h"
#include "driver/tune/gpu_lock.h"
#include "driver/tune/kernel_key.h"
#include "driver/tune/tuning.h"

namespace optiml::cli {

void add_tune_command(CLI::App& app) {
    auto* command =
        app.add_subcommand("tune", "Tune a kernel on a GPU of this machine and store the result");
    struct Options {
        std::string spec;
        int device = 0;
        std::string cache_dir;
        std::optional<int> evaluations;
        std::optional<double> seconds;
        std::string host_compiler = "c++";
        std::optional<std::string> strategy;
        std::string replay;
        std::uint64_t seed = 1;
    };
    auto options = std::make_shared<Options>();
    command->add_option("--spec", options->spec, "Kernel spec (JSON)")->check(CLI::ExistingFile);
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
    command->add_option("--device", options->device, "CUDA device index")->capture_default_str();
    command->add_option("--cache-dir", options->cache_dir,
                        "Local cache (default rules as in `build`)");
    command->add_option("--budget-evaluations", options->evaluations, "Override the spec's budget");
    command->add_option("--budget-seconds", options->seconds, "Override the spec's budget");
    command
        ->add_option("--host-compiler", options->host_compiler,
                     "C++ compiler for the spec's check.compare function")
        ->capture_default_str();
    command->callback([=] {
        if (!options->replay.empty()) {
            exit_status() = run_replay(
                {options->replay, options->strategy.value_or("auto"),
                 options->evaluations.value_or(search::Budget{}.evaluations), options->seed},
                std::cout, std::cerr);
            return;
        }
        if (options->spec.empty()) {
            std::cerr << "optiml: error: tune needs --spec (or --replay)\n";
            exit_status() = 1;
            return;
        }
        spec::Spec spec;
        try {
            spec = spec::load_spec(options->spec);
        } catch (const spec::SpecError& e) {
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
        const tune::KernelSources sources = tune::scan_sources(spec);
        const cache::KeyInputs inputs = tune::key_inputs(spec, sources, device.arch);
        const std::string key = cache::compute_key(inputs);
        search::Budget budget{options->evaluations.value_or(spec.budget.evaluations),
                              options->seconds.value_or(spec.budget.seconds),
                              options->strategy.value_or(spec.budget.strategy)};
        tune::GpuLock lock;
        const std::filesystem::path cache_root = options->cache_dir.empty()
                                                     ? cache::default_cache_dir()
                                                     : std::filesystem::path(options->cache_dir);
        std::optional<cache::Entry> entry;
        try {
            entry = tune::run_tuning({&spec, device, allowed, key, tune::key_summary(inputs),
                                      budget, options->host_compiler, cache_root},
                                     std::cout);
        } catch (const tune::CompareBuildError& e) {
            std::cerr << "optiml: error: " << e.what() << "\n";
            exit_status() = 1;
            return;
        }
        if (!entry) {
            exit_status() = 1;
            return;
        }
        cache::Store store(cache_root);
        store.remove(key);  // an explicit tune replaces the previous result
        store.put(*entry);
        std::cout << "optiml: stored " << key << " in " << store.root().string() << "\n";
    });
}

}  // namespace optiml::cli
