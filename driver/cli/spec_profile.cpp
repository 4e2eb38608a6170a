#include "driver/cli/spec_profile.h"

#include <fstream>
#include <optional>
#include <sstream>

#include "cache/store.h"
#include "driver/compile/nvrtc_compiler.h"
#include "driver/profile/device_ceilings.h"
#include "driver/profile/metric_catalog.h"
#include "driver/profile/profile_client.h"
#include "driver/profile/variant_evidence.h"
#include "driver/tune/candidate_evaluator.h"
#include "driver/tune/compare_build.h"
#include "driver/tune/kernel_key.h"
#include "driver/tune/scratch_dir.h"

namespace optiml::cli {
namespace fs = std::filesystem;
namespace {

// "a=1,b=2" -> {a:1, b:2}; throws std::invalid_argument naming the bad item.
search::Config parse_parameters(const std::string& text, const spec::Spec& spec) {
    search::Config config = spec.default_config();
    std::stringstream items(text);
    std::string item;
    while (std::getline(items, item, ',')) {
        const auto eq = item.find('=');
        if (eq == std::string::npos || !config.count(item.substr(0, eq)))
            throw std::invalid_argument("--variant: '" + item +
                                        "' is not NAME=VALUE for one of the spec's parameters");
        config[item.substr(0, eq)] = std::stoll(item.substr(eq + 1));
    }
    return config;
}

std::optional<search::Config> cached_winner(const SpecProfileOptions& options,
                                            const spec::Spec& spec, int arch, std::string& why) {
    const tune::KernelSources sources = tune::scan_sources(spec);
    const std::string key = cache::compute_key(tune::key_inputs(spec, sources, arch));
    std::vector<cache::Store> stores;
    stores.emplace_back(options.cache_dir.empty() ? cache::default_cache_dir() : options.cache_dir);
    for (const auto& seed : options.seeds)
        if (fs::is_directory(seed / "entries")) stores.emplace_back(seed, /*read_only=*/true);
    for (const auto& store : stores)
        if (auto entry = store.inspect(key))
            return entry->manifest.value("parameters", search::Config{});
    why = "no tuned entry for " + tune::arch_name(arch) + " (key " + key.substr(0, 12) +
          "...): run `optiml tune --spec " + options.spec.string() + "` first";
    return std::nullopt;
}

void write_text(const fs::path& path, const std::string& text) {
    if (path.empty()) return;
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

int run_spec_profile(const SpecProfileOptions& options, std::ostream& out, std::ostream& log) {
    const spec::Spec spec = spec::load_spec(options.spec);
    const auto probe = measure::probe_devices(measure::default_worker_path());
    const auto& devices = probe.devices;
    if (options.device < 0 || static_cast<std::size_t>(options.device) >= devices.size()) {
        log << "optiml: error: no CUDA device " << options.device << " on this machine ("
            << devices.size() << " found"
            << (devices.empty() ? ": " + probe.why_none() : std::string())
            << "); profiling needs a GPU\n";
        return 2;
    }
    const measure::DeviceInfo& device = devices[static_cast<std::size_t>(options.device)];

    search::Config config;  // empty: the original (the spec's defaults)
    if (options.variant == "tuned") {
        std::string why;
        auto winner = cached_winner(options, spec, device.arch, why);
        if (!winner) {
            log << "optiml: error: " << why << "\n";
            return 1;
        }
        config = *winner;
    } else if (options.variant != "original") {
        config = parse_parameters(options.variant, spec);
    }

    tune::ScratchDir scratch;
    const auto original = compile::compile(tune::make_compile_request(
        spec, spec.default_config(), device.arch, compile::Output::Cubin));
    if (!original.ok) {
        log << "optiml: error: the original kernel does not compile with NVRTC:\n" << original.log;
        return 1;
    }
    const measure::LaunchSpec original_launch = tune::write_launch(
        spec, spec.default_config(), original, scratch.path() / "original.cubin");
    measure::LaunchSpec launch = original_launch;
    if (!config.empty()) {
        const auto variant = compile::compile(
            tune::make_compile_request(spec, config, device.arch, compile::Output::Cubin));
        if (!variant.ok) {
            log << "optiml: error: the variant does not compile:\n" << variant.log;
            return 1;
        }
        launch = tune::write_launch(spec, config, variant, scratch.path() / "variant.cubin");
    }

    // Fixed inputs (seed base 0), so that an outside profiler sees the same data on a rerun; the
    // spec's comparison function and generators built with the default host compiler.
    measure::Problem problem = measure::make_problem(spec);
    tune::build_host_functions(spec, "c++", scratch.path() / "host_functions", problem);
    measure::RemoteSession session(measure::default_worker_path(), device.index, problem,
                                   original_launch);
    session.start();
    const measure::Measurement timed =
        session.evaluate(launch, measure::TimingSpec{}, std::chrono::minutes(5));
    if (!timed.ok) {
        log << "optiml: error: the variant failed verification (" << timed.status << ": "
            << timed.message << ")\n";
        return 1;
    }
    const std::string label = config.empty() ? "original" : search::format_config(config);
    log << "optiml: " << spec.name << " " << label << ": " << timed.median_ms << " ms (median of "
        << timed.runs << " runs)\n";
    if (options.run_only) return 0;

    profile::ProfileRequest request;
    if (options.counters) request.metrics = profile::proxy_metrics();
    request.pc_sampling = options.pc_sampling;
    profile::VariantProfile variant{
        label, profile::profile_variant(session, launch, request, std::chrono::minutes(5)),
        timed.median_ms};
    std::vector<std::string> notes;
    const fs::path cache_root =
        options.cache_dir.empty() ? cache::default_cache_dir() : options.cache_dir;
    const auto ceilings = profile::device_ceilings(device, cache_root, scratch.path(), notes);
    analysis::EvidenceReport report =
        profile::evidence_report(spec.name, device.name, variant, ceilings, std::nullopt);
    report.notes.insert(report.notes.end(), notes.begin(), notes.end());

    nlohmann::json json = analysis::to_json(report);
    json["profiling"] = {{"passes", variant.result.passes},
                         {"counters_ms", variant.result.counters_ms},
                         {"pc_sampling_ms", variant.result.pc_sampling_ms},
                         {"pc_sampling_launches", variant.result.pc_sampling_launches},
                         {"pc_total_samples", variant.result.pc_total_samples},
                         {"raw_counters", variant.result.counters},
                         {"measured_ms", variant.measured_ms},
                         {"raw", variant.result}};  // everything the worker sent, stall samples too
    if (ceilings)
        json["ceilings"] = {{"dram_bytes_per_s", ceilings->dram_bytes_per_s},
                            {"flops_per_s", ceilings->flops_per_s}};
    const std::string markdown = analysis::to_markdown(report);
    out << markdown;
    write_text(options.json_out, json.dump(2) + "\n");
    write_text(options.markdown_out, markdown);
    return variant.result.ok ? 0 : 1;
}

}  // namespace optiml::cli
