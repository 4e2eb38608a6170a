#include "driver/tune/spec_profile.h"

#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

#include "cache/store.h"
#include "driver/compile/nvrtc_compiler.h"
#include "driver/identity/kernel_identity.h"
#include "driver/identity/kernel_key.h"
#include "driver/profile/device_ceilings.h"
#include "driver/profile/metric_catalog.h"
#include "driver/profile/profile_client.h"
#include "driver/profile/variant_evidence.h"
#include "driver/tune/candidate_evaluator.h"
#include "driver/tune/detail/profiled_variant.h"
#include "driver/tune/measuring_session.h"

namespace optiml::tune {
namespace fs = std::filesystem;
namespace {

// The entry the build would ship for this GPU: the local cache first, then the seeds.
std::optional<cache::Entry> shipped_entry(const SpecProfileOptions& options, const spec::Spec& spec,
                                          int arch, std::string& why) {
    const identity::KernelSources sources = identity::scan_sources(spec);
    const std::string key = cache::compute_key(identity::key_inputs(spec, sources, arch));
    std::vector<cache::Store> stores;
    stores.emplace_back(options.cache_dir.empty() ? cache::default_cache_dir() : options.cache_dir);
    for (const auto& seed : options.seeds)
        if (fs::is_directory(seed / "entries")) stores.emplace_back(seed, /*read_only=*/true);
    for (const auto& store : stores)
        if (auto entry = store.inspect(key)) return entry;
    why = "no tuned entry for " + identity::arch_name(arch) + " (key " + key.substr(0, 12) +
          "...): run `optiml tune --spec " + options.spec.string() +
          (options.build_dir.empty() ? "" : " --build-dir " + options.build_dir.string()) +
          "` first";
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
    const spec::Spec spec = identity::resolve_kernel(options.spec, options.build_dir).spec;
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

    ProfiledVariant variant;
    if (options.variant == "tuned") {
        std::string why;
        const auto entry = shipped_entry(options, spec, device.arch, why);
        if (!entry) {
            log << "optiml: error: " << why << "\n";
            return 1;
        }
        variant = shipped_variant(spec, *entry);  // its source, options and parameters
    } else if (options.variant == "original") {
        variant = original_variant(spec);
    } else {
        variant = parameters_variant(spec, options.variant);
    }
    const compile::CompileRequest request =
        variant_request(spec, variant, device.arch, compile::Output::Cubin);

    // Fixed inputs (seed base 0), so that an outside profiler sees the same data on a rerun; the
    // spec's comparison function and generators built with the default host compiler.
    std::unique_ptr<MeasuringSession> opened;
    try {
        opened = std::make_unique<MeasuringSession>(spec, device,
                                                    SessionSetup{"c++", false, false, nullptr});
    } catch (const SessionError& e) {
        if (e.step != SessionError::Step::Original) throw;
        log << "optiml: error: the original kernel does not compile with NVRTC:\n" << e.compile_log;
        return 1;
    }
    MeasuringSession& measuring = *opened;
    measure::RemoteSession& session = measuring.worker();
    measure::LaunchSpec launch = measuring.original_launch();
    if (variant.kind != "original") {
        const auto compiled = compile::compile(request);
        if (!compiled.ok) {
            log << "optiml: error: the variant does not compile:\n" << compiled.log;
            return 1;
        }
        launch = write_launch(spec, variant.candidate.parameters, compiled,
                              measuring.scratch() / "variant.cubin");
    }
    const measure::Measurement timed =
        session.evaluate(launch, measure::TimingSpec{}, std::chrono::minutes(5));
    if (!timed.ok) {
        log << "optiml: error: the variant failed verification (" << timed.status << ": "
            << timed.message << ")\n";
        return 1;
    }
    const std::string label = variant_label(variant);
    log << "optiml: " << spec.name << " " << label << ": " << timed.median_ms << " ms (median of "
        << timed.runs << " runs)\n";
    // Which exact kernel was timed, in every report: a winner's own source and options.
    const nlohmann::json candidate = variant_json(variant, request);
    const nlohmann::json timing = {{"median_ms", timed.median_ms},
                                   {"ci_low_ms", timed.ci_low_ms},
                                   {"ci_high_ms", timed.ci_high_ms},
                                   {"runs", timed.runs}};
    if (options.run_only) {
        write_text(options.json_out, nlohmann::json{{"kernel", spec.name},
                                                    {"device", device.name},
                                                    {"variant", label},
                                                    {"candidate", candidate},
                                                    {"timing", timing}}
                                             .dump(2) +
                                         "\n");
        return 0;
    }

    profile::ProfileRequest profile_request;
    if (options.counters) profile_request.metrics = profile::proxy_metrics();
    profile_request.pc_sampling = options.pc_sampling;
    profile::VariantProfile profiled{
        label, profile::profile_variant(session, launch, profile_request, std::chrono::minutes(5)),
        timed.median_ms};
    std::vector<std::string> notes;
    const fs::path cache_root =
        options.cache_dir.empty() ? cache::default_cache_dir() : options.cache_dir;
    const auto ceilings = profile::device_ceilings(device, cache_root, measuring.scratch(), notes);
    analysis::EvidenceReport report =
        profile::evidence_report(spec.name, device.name, profiled, ceilings, std::nullopt);
    report.notes.insert(report.notes.end(), notes.begin(), notes.end());

    nlohmann::json json = analysis::to_json(report);
    json["candidate"] = candidate;
    json["timing"] = timing;
    json["profiling"] = {
        {"passes", profiled.result.passes},
        {"counters_ms", profiled.result.counters_ms},
        {"pc_sampling_ms", profiled.result.pc_sampling_ms},
        {"pc_sampling_launches", profiled.result.pc_sampling_launches},
        {"pc_total_samples", profiled.result.pc_total_samples},
        {"raw_counters", profiled.result.counters},
        {"measured_ms", profiled.measured_ms},
        {"raw", profiled.result}};  // everything the worker sent, stall samples too
    if (ceilings)
        json["ceilings"] = {{"dram_bytes_per_s", ceilings->dram_bytes_per_s},
                            {"flops_per_s", ceilings->flops_per_s}};
    const std::string markdown = analysis::to_markdown(report);
    out << markdown;
    write_text(options.json_out, json.dump(2) + "\n");
    write_text(options.markdown_out, markdown);
    return profiled.result.ok ? 0 : 1;
}

}  // namespace optiml::tune
