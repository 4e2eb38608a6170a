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

// The GPU --device names, or null after saying on `log` that this machine has no such device.
const measure::DeviceInfo* requested_device(int index, const measure::DeviceProbe& probe,
                                            std::ostream& log) {
    const auto& devices = probe.devices;
    if (index < 0 || static_cast<std::size_t>(index) >= devices.size()) {
        log << "optiml: error: no CUDA device " << index << " on this machine (" << devices.size()
            << " found" << (devices.empty() ? ": " + probe.why_none() : std::string())
            << "); profiling needs a GPU\n";
        return nullptr;
    }
    return &devices[static_cast<std::size_t>(index)];
}

// The variant --variant names; nullopt, with the reason in `why`, when "tuned" has no entry.
std::optional<ProfiledVariant> requested_variant(const SpecProfileOptions& options,
                                                 const spec::Spec& spec, int arch,
                                                 std::string& why) {
    if (options.variant == "tuned") {
        const auto entry = shipped_entry(options, spec, arch, why);
        if (!entry) return std::nullopt;
        return shipped_variant(spec, *entry);  // its source, options and parameters
    }
    if (options.variant == "original") return original_variant(spec);
    return parameters_variant(spec, options.variant);
}

// Fixed inputs (seed base 0), so that an outside profiler sees the same data on a rerun; the
// spec's comparison function and generators built with the default host compiler. Null after
// saying on `log` that the original kernel does not compile.
std::unique_ptr<MeasuringSession> open_profiling_session(const spec::Spec& spec,
                                                         const measure::DeviceInfo& device,
                                                         std::ostream& log) {
    try {
        return std::make_unique<MeasuringSession>(spec, device,
                                                  SessionSetup{"c++", false, false, nullptr});
    } catch (const SessionError& e) {
        if (e.step != SessionError::Step::Original) throw;
        log << "optiml: error: the original kernel does not compile with NVRTC:\n" << e.compile_log;
        return nullptr;
    }
}

// The session's own launch for the original; any other variant compiled into the scratch
// folder first. nullopt after saying on `log` that it does not compile.
std::optional<measure::LaunchSpec> variant_launch(const spec::Spec& spec,
                                                  const ProfiledVariant& variant,
                                                  const compile::CompileRequest& request,
                                                  MeasuringSession& measuring, std::ostream& log) {
    if (variant.kind == "original") return measuring.original_launch();
    const auto compiled = compile::compile(request);
    if (!compiled.ok) {
        log << "optiml: error: the variant does not compile:\n" << compiled.log;
        return std::nullopt;
    }
    return write_launch(spec, variant.candidate, compiled,
                        measuring.scratch() / "variant.cubin");
}

// The variant as verified and timed, as every report names it.
struct TimedVariant {
    std::string label;
    nlohmann::json candidate;  // which exact kernel was timed: a winner's own source and options
    nlohmann::json timing;
    double median_ms = 0.0;
};

// Verified and timed as in tuning; nullopt after saying on `log` that verification failed.
std::optional<TimedVariant> time_variant(const spec::Spec& spec, const ProfiledVariant& variant,
                                         const compile::CompileRequest& request,
                                         measure::RemoteSession& session,
                                         const measure::LaunchSpec& launch, std::ostream& log) {
    const measure::Measurement timed =
        session.evaluate(launch, measure::TimingSpec{}, std::chrono::minutes(5));
    if (!timed.ok) {
        log << "optiml: error: the variant failed verification (" << timed.status << ": "
            << timed.message << ")\n";
        return std::nullopt;
    }
    const std::string label = variant_label(variant);
    log << "optiml: " << spec.name << " " << label << ": " << timed.median_ms << " ms (median of "
        << timed.runs << " runs)\n";
    return TimedVariant{label,
                        variant_json(variant, request),
                        {{"median_ms", timed.median_ms},
                         {"ci_low_ms", timed.ci_low_ms},
                         {"ci_high_ms", timed.ci_high_ms},
                         {"runs", timed.runs}},
                        timed.median_ms};
}

// The --run-only report: which kernel ran where, and its time.
nlohmann::json run_only_json(const spec::Spec& spec, const measure::DeviceInfo& device,
                             const TimedVariant& timed) {
    return {{"kernel", spec.name},
            {"device", device.name},
            {"variant", timed.label},
            {"candidate", timed.candidate},
            {"timing", timed.timing}};
}

// The evidence report's JSON, with the timed candidate and everything the profiling gave.
nlohmann::json evidence_json(const analysis::EvidenceReport& report, const TimedVariant& timed,
                             const profile::VariantProfile& profiled,
                             const std::optional<analysis::DeviceCeilings>& ceilings) {
    nlohmann::json json = analysis::to_json(report);
    json["candidate"] = timed.candidate;
    json["timing"] = timed.timing;
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
    return json;
}

// Profiles the timed variant (counters, PC sampling) and reports it against the device's
// ceilings: Markdown to `out`, and the files asked for. 0 when the profiling succeeded.
int report_evidence(const SpecProfileOptions& options, const spec::Spec& spec,
                    const measure::DeviceInfo& device, MeasuringSession& measuring,
                    const measure::LaunchSpec& launch, const TimedVariant& timed,
                    std::ostream& out) {
    profile::ProfileRequest profile_request;
    if (options.counters) profile_request.metrics = profile::proxy_metrics();
    profile_request.pc_sampling = options.pc_sampling;
    const profile::VariantProfile profiled{
        timed.label,
        profile::profile_variant(measuring.worker(), launch, profile_request,
                                 std::chrono::minutes(5)),
        timed.median_ms};
    std::vector<std::string> notes;
    const fs::path cache_root =
        options.cache_dir.empty() ? cache::default_cache_dir() : options.cache_dir;
    const auto ceilings = profile::device_ceilings(device, cache_root, measuring.scratch(), notes);
    analysis::EvidenceReport report =
        profile::evidence_report(spec.name, device.name, profiled, ceilings, std::nullopt);
    report.notes.insert(report.notes.end(), notes.begin(), notes.end());

    const nlohmann::json json = evidence_json(report, timed, profiled, ceilings);
    const std::string markdown = analysis::to_markdown(report);
    out << markdown;
    write_text(options.json_out, json.dump(2) + "\n");
    write_text(options.markdown_out, markdown);
    return profiled.result.ok ? 0 : 1;
}

}  // namespace

int run_spec_profile(const SpecProfileOptions& options, std::ostream& out, std::ostream& log) {
    const spec::Spec spec = identity::resolve_kernel(options.spec, options.build_dir).spec;
    const auto probe = measure::probe_devices(measure::default_worker_path());
    const measure::DeviceInfo* device = requested_device(options.device, probe, log);
    if (!device) return 2;
    std::string why;
    const std::optional<ProfiledVariant> variant =
        requested_variant(options, spec, device->arch, why);
    if (!variant) {
        log << "optiml: error: " << why << "\n";
        return 1;
    }
    const compile::CompileRequest request =
        variant_request(spec, *variant, device->arch, compile::Output::Cubin);

    const std::unique_ptr<MeasuringSession> measuring = open_profiling_session(spec, *device, log);
    if (!measuring) return 1;
    const std::optional<measure::LaunchSpec> launch =
        variant_launch(spec, *variant, request, *measuring, log);
    if (!launch) return 1;
    const std::optional<TimedVariant> timed =
        time_variant(spec, *variant, request, measuring->worker(), *launch, log);
    if (!timed) return 1;
    if (options.run_only) {
        write_text(options.json_out, run_only_json(spec, *device, *timed).dump(2) + "\n");
        return 0;
    }
    return report_evidence(options, spec, *device, *measuring, *launch, *timed, out);
}

}  // namespace optiml::tune
