// `optiml synth "<request>" --reference <file> --name <kernel> --out <dir>`: a first kernel and
// its spec from a request in words (driver/llm/synthesis.h), written to <dir> once it compiles
// and its spec loads; `optiml tune --spec` then verifies and tunes it on a GPU.
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
#include "driver/tune/synth_check.h"

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
    int arch = 90;
    llm::LlmOverrides llm;
};

int run_synth(const SynthOptions& options) {
    std::ifstream stream(options.reference, std::ios::binary);
    if (!stream.is_open()) {
        std::cerr << "optiml: error: " << options.reference << ": cannot be read\n";
        return 1;
    }
    llm::SynthRequest request;
    request.request = options.request;
    request.reference_name = std::filesystem::path(options.reference).filename().string();
    request.reference.assign(std::istreambuf_iterator<char>(stream), {});
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
    const std::filesystem::path out = options.out;
    const llm::SynthResult result = llm::synthesize(
        *chat, request,
        [&](const std::string& kernel, const nlohmann::json& spec) {
            return tune::synth_problem(out, options.name, kernel, spec, options.arch);
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
    std::cout << "optiml: wrote " << files.kernel.string() << " and " << files.spec.string()
              << "; verify and tune it on a GPU with: optiml tune --spec " << files.spec.string()
              << "\n";
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
    command->add_option("--arch", options->arch, "Architecture the compile check targets")
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
