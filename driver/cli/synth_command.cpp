// `optiml synth "<request>" --reference <file> --name <kernel> --out <dir>`: a first kernel and
// its spec from a request in words (driver/llm/synthesis.h), written to <dir> once it compiles,
// its spec loads and, on a machine with a GPU, it matches the reference
// (driver/tune/reference_check.h); then tuned there. Without a GPU it says the kernel is not
// verified, and how to verify it. Exit status: 0 verified (and tuned), 3 written but not
// verified (no GPU), 1 no acceptable kernel or an error.
#include <fstream>
#include <iostream>
#include <iterator>
#include <regex>
#include <sstream>

#include "cache/store.h"
#include "driver/cli/commands.h"
#include "driver/cli/llm_options.h"
#include "driver/llm/exchange_chain.h"
#include "driver/llm/synthesis.h"
#include "driver/measure/worker_client.h"
#include "driver/tune/reference_check.h"
#include "driver/tune/synth_check.h"
#include "driver/tune/tune_spec.h"

namespace optiml::cli {
namespace {

std::vector<std::string> split_models(const std::string& text) {
    std::vector<std::string> models;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) models.push_back(item);
    return models;
}

struct SynthOptions {
    std::string request;
    std::string reference;
    std::string name;
    std::string out;
    std::string experts;
    std::string cache_dir;
    std::string reference_entry;
    int arch = 90;
    llm::LlmOverrides llm;
};

int run_synth(const SynthOptions& options) {
    const tune::Reference reference =
        tune::read_reference(options.reference, options.reference_entry);
    llm::SynthRequest request;
    request.request = options.request;
    request.reference_name = reference.file.filename().string();
    request.reference = reference.text;
    request.kernel_name = options.name;

    const llm::LlmConfig config = resolve_llm_config(options.llm);
    std::string experts = options.experts;
    if (experts.empty()) {
        const char* env = std::getenv("OPTIML_LLM_EXPERTS");
        experts = env != nullptr && *env != '\0' ? env : config.model;
    }
    request.experts = split_models(experts);
    request.primary = config.model;
    if (request.primary.empty() || request.experts.empty()) {
        std::cerr << "optiml: error: synth needs a model: set OPTIML_LLM_MODEL (the primary) "
                     "and optionally OPTIML_LLM_EXPERTS or --llm-experts (models that draft)\n";
        return 1;
    }
    const std::filesystem::path cache_root = options.cache_dir.empty()
                                                 ? cache::default_cache_dir()
                                                 : std::filesystem::path(options.cache_dir);
    const auto note = [](const std::string& line) { std::cout << "optiml: " << line << "\n"; };
    auto chat = llm::open_chat(config, cache_root, {}, note);
    if (!chat) {
        std::cerr << "optiml: error: synth needs an LLM: set OPTIML_LLM_BASE_URL (or "
                     "--llm-base-url), or --llm-replay with recorded exchanges\n";
        return 1;
    }
    // A GPU verifies each answer against the reference (a mismatch goes back for repair) and
    // then tunes the kernel; without one the answer is only compiled.
    const measure::DeviceProbe probe = measure::probe_devices(measure::default_worker_path());
    const measure::DeviceInfo* device = probe.devices.empty() ? nullptr : &probe.devices.front();
    const int arch = device ? device->arch : options.arch;
    const std::filesystem::path out = options.out;
    const auto spec_file = out / (options.name + ".optiml.json");
    const llm::SynthResult result = llm::synthesize(
        *chat, request,
        [&](const std::string& kernel, const nlohmann::json& spec) {
            std::string problem = tune::synth_problem(out, options.name, kernel, spec, arch);
            if (!problem.empty() || !device) return problem;
            const tune::ReferenceVerdict verdict = tune::verify_against_reference(
                spec::load_spec(spec_file), reference, *device, "c++");
            if (verdict.ok) return std::string();
            note("synth: the kernel does not match the reference: " +
                 verdict.describe().substr(0, 300));
            return "the kernel does not match the reference " + reference.file.filename().string() +
                   " (" + reference.entry + ") on the GPU: " + verdict.describe();
        },
        note);
    const llm::ExchangeTotals totals = chat->totals();
    std::cout << "optiml: synth: experts asked: ";
    for (std::size_t i = 0; i < result.routed.size(); ++i)
        std::cout << (i ? ", " : "") << result.routed[i];
    std::cout << (result.route_note.empty() ? "" : " (" + result.route_note + ")") << "; "
              << totals.exchanges << " exchanges (" << totals.replayed << " replayed), "
              << totals.tokens() << " tokens\n";
    if (!result.accepted) {
        std::cerr << "optiml: error: synth: no acceptable kernel after " << result.repairs
                  << " repairs; the last problem: " << result.problem << "\n";
        return 1;
    }
    const tune::SynthFiles files =
        tune::write_synth_files(out, options.name, result.kernel, result.spec);
    if (!device) {
        std::cout << "optiml: synth: wrote " << files.kernel.string() << " and "
                  << files.spec.string() << ": compiled by NVRTC, NOT verified against the "
                  << "reference (no GPU here: " << probe.why_none()
                  << "); on a machine with a GPU, "
                  << "verify and tune it with: optiml tune --spec " << files.spec.string()
                  << " --reference " << options.reference << " --reference-entry "
                  << reference.entry << "\n";
        return 3;
    }
    std::cout << "optiml: synth: wrote " << files.kernel.string() << " and " << files.spec.string()
              << ": verified against the reference " << options.reference << " (" << reference.entry
              << ") on " << device->name << "; tuning\n";
    const spec::Spec spec = spec::load_spec(files.spec);
    const auto tuned =
        tune::tune_and_store({&spec,
                              *device,
                              probe.devices,
                              {spec.budget.evaluations, spec.budget.seconds, spec.budget.strategy},
                              "c++",
                              cache_root,
                              config},
                             std::cout);
    if (!tuned) {
        std::cerr << "optiml: error: synth: the verified kernel was written, but its tuning failed "
                     "(details above)\n";
        return 1;
    }
    return 0;
}

}  // namespace

void add_synth_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "synth", "Synthesize a kernel and its spec from a request in words, by several models");
    auto options = std::make_shared<SynthOptions>();
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
            exit_status() = run_synth(*options);
        } catch (const std::exception& e) {
            std::cerr << "optiml: error: " << e.what() << "\n";
            exit_status() = 1;
        }
    });
}

}  // namespace optiml::cli
