#include "driver/tune/synthesize.h"

#include <cstdlib>
#include <sstream>

#include "cache/store.h"
#include "driver/llm/exchange_chain.h"
#include "driver/llm/synthesis.h"
#include "driver/measure/worker_client.h"
#include "driver/tune/budget_rules.h"
#include "driver/tune/detail/reference_check.h"
#include "driver/tune/detail/synth_check.h"
#include "driver/tune/tune_spec.h"

namespace optiml::tune {
namespace {

std::vector<std::string> split_models(const std::string& text) {
    std::vector<std::string> models;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) models.push_back(item);
    return models;
}

}  // namespace

int run_synth(const SynthOptions& options, std::ostream& log, std::ostream& err) {
    const Reference reference = read_reference(options.reference, options.reference_entry);
    llm::SynthRequest request;
    request.request = options.request;
    request.reference_name = reference.file.filename().string();
    request.reference = reference.text;
    request.kernel_name = options.name;

    const llm::LlmConfig config = llm::resolve_config(options.llm);
    std::string experts = options.experts;
    if (experts.empty()) {
        const char* env = std::getenv("OPTIML_LLM_EXPERTS");
        experts = env != nullptr && *env != '\0' ? env : config.model;
    }
    request.experts = split_models(experts);
    request.primary = config.model;
    if (request.primary.empty() || request.experts.empty()) {
        err << "optiml: error: synth needs a model: set OPTIML_LLM_MODEL (the primary) "
               "and optionally OPTIML_LLM_EXPERTS or --llm-experts (models that draft)\n";
        return 1;
    }
    const std::filesystem::path cache_root = options.cache_dir.empty()
                                                 ? cache::default_cache_dir()
                                                 : std::filesystem::path(options.cache_dir);
    const auto note = [&log](const std::string& line) { log << "optiml: " << line << "\n"; };
    auto chat = llm::open_chat(config, cache_root, {}, note);
    if (!chat) {
        err << "optiml: error: synth needs an LLM: set OPTIML_LLM_BASE_URL (or "
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
            std::string problem = synth_problem(out, options.name, kernel, spec, arch);
            if (!problem.empty() || !device) return problem;
            const ReferenceVerdict verdict =
                verify_against_reference(spec::load_spec(spec_file), reference, *device, "c++");
            if (verdict.ok) return std::string();
            note("synth: the kernel does not match the reference: " +
                 verdict.describe().substr(0, 300));
            return "the kernel does not match the reference " + reference.file.filename().string() +
                   " (" + reference.entry + ") on the GPU: " + verdict.describe();
        },
        note);
    const llm::ExchangeTotals totals = chat->totals();
    log << "optiml: synth: experts asked: ";
    for (std::size_t i = 0; i < result.routed.size(); ++i)
        log << (i ? ", " : "") << result.routed[i];
    log << (result.route_note.empty() ? "" : " (" + result.route_note + ")") << "; "
        << totals.exchanges << " exchanges (" << totals.replayed << " replayed), "
        << totals.tokens() << " tokens\n";
    if (!result.accepted) {
        err << "optiml: error: synth: no acceptable kernel after " << result.repairs
            << " repairs; the last problem: " << result.problem << "\n";
        return 1;
    }
    const SynthFiles files = write_synth_files(out, options.name, result.kernel, result.spec);
    if (!device) {
        log << "optiml: synth: wrote " << files.kernel.string() << " and " << files.spec.string()
            << ": compiled by NVRTC, NOT verified against the "
            << "reference (no GPU here: " << probe.why_none() << "); on a machine with a GPU, "
            << "verify and tune it with: optiml tune --spec " << files.spec.string()
            << " --reference " << options.reference << " --reference-entry " << reference.entry
            << "\n";
        return 3;
    }
    log << "optiml: synth: wrote " << files.kernel.string() << " and " << files.spec.string()
        << ": verified against the reference " << options.reference << " (" << reference.entry
        << ") on " << device->name << "; tuning\n";
    const spec::Spec spec = spec::load_spec(files.spec);
    const auto tuned = tune_and_store(
        {&spec, *device, probe.devices, search_budget(spec), "c++", cache_root, config}, log);
    if (!tuned) {
        err << "optiml: error: synth: the verified kernel was written, but its tuning failed "
               "(details above)\n";
        return 1;
    }
    return 0;
}

}  // namespace optiml::tune
