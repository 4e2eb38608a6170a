#include "driver/retune/retune.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <map>

#include "cache/entry_manifest.h"
#include "cache/lookup_chain.h"
#include "driver/compile/nvrtc_compiler.h"
#include "driver/identity/build_manifest.h"
#include "driver/identity/kernel_identity.h"
#include "driver/identity/kernel_key.h"
#include "driver/identity/version.h"
#include "driver/retune/detail/side_by_side.h"
#include "driver/search/candidate_json.h"
#include "driver/search/recording_file.h"
#include "driver/tune/budget_rules.h"
#include "driver/tune/device_selection.h"
#include "driver/tune/gpu_lock.h"
#include "driver/tune/llm_settings.h"
#include "driver/tune/tuning.h"

namespace optiml::retune {
namespace fs = std::filesystem;
namespace {

TimeInterval recorded_interval(const cache::MeasuredTime& time) {
    return {time.median, time.min, time.max, time.runs};
}

TimeInterval outcome_interval(const search::Outcome& o) {
    return {o.median_ms, o.min_ms, o.max_ms, o.runs};
}

// What differs between the entry's record and this machine now, each "what old -> new".
std::vector<std::string> changes_since(const cache::EntryManifest& manifest,
                                       const measure::DeviceInfo* device) {
    std::vector<std::string> changes;
    const auto note = [&](const std::string& what, const std::string& then,
                          const std::string& now) {
        if (then != now) changes.push_back(what + " " + (then.empty() ? "?" : then) + " -> " + now);
    };
    note("NVRTC", manifest.nvrtc_version, compile::nvrtc_version());
    if (manifest.compiler_backend == "nvcc")
        note("nvcc", manifest.compiler_version, compile::compiler_version(compile::Backend::Nvcc));
    note("OptiML", manifest.optiml_version, identity::kVersion);
    if (device) {
        note("driver", std::to_string(manifest.device.driver), std::to_string(device->driver));
        note("GPU", manifest.device.name, device->name);
    }
    return changes;
}

struct Kernel {
    const identity::DeclaredKernel* declared;
    spec::Spec spec;
    identity::KernelSources sources;
    cache::Store* local;
    const cache::LookupChain* chain;
    llm::LlmConfig llm;           // the environment's, with the build's flags over it
    cache::LlmKeyInputs llm_key;  // what of it enters the key (kernel_key.h)

    // The key's inputs for `arch`, with the LLM as the build had it, or without it (`base`).
    cache::KeyInputs inputs(int arch, bool base = false) const {
        return identity::key_inputs(spec, sources, arch, base ? cache::LlmKeyInputs{} : llm_key);
    }
};

// The recording's outcomes stand in for the GPU: the search runs against them and both winners
// get their recorded time.
void retune_replayed(const Kernel& k, const search::Recording& recording,
                     const std::optional<cache::Entry>& cached, RetuneRow& row) {
    row.device = "replay of " + recording.file;
    row.note = "replayed GPU: the recording's times; nothing stored (no binary was timed)";
    search::ReplayEvaluator evaluator(recording);
    search::Budget budget =
        tune::search_budget(k.spec.budget, recording.space.enumerate_valid().size());
    budget.seconds = 1e9;  // a replay takes no GPU time
    const search::Result result = search::run_search(recording.space, evaluator, budget);
    if (!result.best) {
        row.status = "failed";
        row.note = "no configuration of " + recording.file + " succeeded";
        return;
    }
    const auto& best = result.trace[*result.best];
    row.new_winner = search::format_candidate(best.candidate);
    row.new_now = outcome_interval(best.outcome);
    if (!cached) {
        row.status = "new";
        row.replaces = true;
        return;
    }
    const search::Candidate winner = cache::read_entry_manifest(*cached).winner;
    const auto found = recording.records.find(winner.parameters);
    if (!winner.is_original_source() || !winner.options.empty() ||
        found == recording.records.end() || !found->second.ok) {
        row.status = "failed";
        row.note = "the cached winner (" + row.cached_winner + ") has no successful record in " +
                   recording.file;
        return;
    }
    row.cached_now = outcome_interval(found->second);
    row.status = compare_intervals(*row.new_now, *row.cached_now);
    row.replaces = row.status == "faster" || row.new_key != row.old_key;
}

// The request a build's tuning makes for this kernel on `device`, under the row's new key.
tune::TuneRequest tune_request(const Kernel& k, const measure::DeviceInfo& device,
                               const std::vector<measure::DeviceInfo>& devices,
                               const cache::KeyInputs& inputs, const std::string& key) {
    tune::TuneRequest request;
    request.spec = &k.spec;
    request.device = device;
    request.devices = devices;
    request.key = key;
    request.key_summary = identity::key_summary(inputs);
    request.budget = tune::search_budget(k.spec);
    request.host_compiler = k.declared->host_compiler;
    request.cache_root = k.local->root();
    request.llm = k.llm;
    request.seeds = k.declared->seeds;  // their llm/ folders hold recorded exchanges
    return request;
}

// Times the new winner beside the cached one in one worker, so that both see the same GPU state,
// and decides whether it replaces it; false (the row failed) when the new winner fails there.
bool compare_with_cached(const Kernel& k, const measure::DeviceInfo& device,
                         const cache::Entry& fresh, const cache::Entry& cached, RetuneRow& row) {
    const measure::Measurement m =
        time_side_by_side(k.spec, device, fresh, cached, k.declared->host_compiler);
    if (!m.ok || !m.has_incumbent) {
        row.status = "failed";
        row.note = "the new winner failed beside the cached one: " + m.status + " " + m.message;
        return false;
    }
    row.new_now = TimeInterval{m.median_ms, m.ci_low_ms, m.ci_high_ms, m.runs};
    row.cached_now = TimeInterval{m.incumbent_median_ms, m.incumbent_ci_low_ms,
                                  m.incumbent_ci_high_ms, m.incumbent_runs};
    row.status = compare_intervals(*row.new_now, *row.cached_now);
    // Under an unchanged key the cached winner stays unless beaten beyond the spread; a new key
    // has no other entry to serve this toolchain.
    row.replaces = row.status == "faster" || row.new_key != row.old_key;
    return true;
}

// The new winner into the local cache, then to `options.publish`; false when it could not be
// stored (the row's note says why), since nothing of it may then be published.
bool store_and_publish(const Kernel& k, const cache::Entry& fresh, const RetuneOptions& options,
                       RetuneRow& row) {
    try {
        k.local->remove(row.new_key);
        k.local->put(fresh);
        row.cache_updated = true;
    } catch (const cache::CacheError& e) {
        row.note = "could not store the new winner: " + std::string(e.what());
        return false;
    }
    if (options.publish) {
        try {
            options.publish(fresh);
            row.published = true;
        } catch (const std::runtime_error& e) {
            row.note = "could not publish the new winner: " + std::string(e.what());
        }
    }
    return true;
}

// As a build's tuning does: builds without the LLM are served the verified winner it helped find,
// unless they have an entry of their own.
void store_copy_for_base_key(const Kernel& k, int arch, const cache::Entry& fresh,
                             const RetuneOptions& options, RetuneRow& row) {
    const cache::KeyInputs base_inputs = k.inputs(arch, /*base=*/true);
    const std::string base_key = cache::compute_key(base_inputs);
    if (base_key == row.new_key || k.chain->fetch(base_key, [](const std::string&) {})) return;
    const cache::Entry copy =
        identity::llm_entry_for_base_key(fresh, base_key, identity::key_summary(base_inputs));
    try {
        k.local->put(copy);
        if (options.publish) options.publish(copy);
    } catch (const std::exception& e) {
        row.note += std::string(row.note.empty() ? "" : "; ") +
                    "the copy for builds without the LLM: " + e.what();
    }
}

void retune_on_gpu(const Kernel& k, const measure::DeviceInfo& device,
                   const std::vector<measure::DeviceInfo>& devices, const cache::KeyInputs& inputs,
                   const std::optional<cache::Entry>& cached, const RetuneOptions& options,
                   RetuneRow& row, std::ostream& log) {
    row.device = device.name + " (device " + std::to_string(device.index) + ")";
    tune::GpuLock lock;  // held to the end: through the tuning and the side-by-side timing
    std::string failure;
    const std::optional<cache::Entry> fresh =
        tune::run_tuning(tune_request(k, device, devices, inputs, row.new_key), log, &failure);
    if (!fresh) {
        row.status = "failed";
        row.note = "tuning failed: " + failure;
        return;
    }
    const cache::EntryManifest fresh_manifest = cache::read_entry_manifest(*fresh);
    row.new_winner = search::format_candidate(fresh_manifest.winner);
    row.replaces = true;
    if (cached) {
        if (!compare_with_cached(k, device, *fresh, *cached, row)) return;
    } else {
        row.status = "new";
        row.new_now = recorded_interval(fresh_manifest.time_ms);
    }
    if (!row.replaces || !store_and_publish(k, *fresh, options, row)) return;
    store_copy_for_base_key(k, device.arch, *fresh, options, row);
}

void write_text(const fs::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + file.string());
}

// The GPUs this machine lets OptiML use, probed once, on the first kernel without a recording.
class Devices {
  public:
    // The first GPU of `arch`, or null with the reason in `why`. Throws DeviceListError for a bad
    // $OPTIML_DEVICES.
    const measure::DeviceInfo* first_of(int arch, std::string& why) {
        if (!probe_) {
            probe_ = measure::probe_devices(measure::default_worker_path());
            probe_->devices =
                tune::allowed_devices(probe_->devices, tune::device_list_from_environment());
        }
        for (const auto& d : probe_->devices)
            if (d.arch == arch) return &d;
        why = "no GPU of this architecture here" +
              (probe_->why_none().empty() ? "" : " (" + probe_->why_none() + ")");
        return nullptr;
    }
    const std::vector<measure::DeviceInfo>& all() const { return probe_->devices; }

  private:
    std::optional<measure::DeviceProbe> probe_;
};

// One row: the cached entry the build used, then the retune on the recording or on this
// machine's GPU.
RetuneRow retune_arch(const Kernel& k, const identity::DeclaredArch& arch,
                      const search::Recording* replay, Devices& devices,
                      const RetuneOptions& options, std::ostream& log) {
    RetuneRow row;
    row.kernel = k.declared->name;
    row.arch = arch.arch;
    row.spec = k.declared->spec.string();
    row.old_key = arch.key;
    const cache::KeyInputs inputs = k.inputs(arch.number());
    row.new_key = cache::compute_key(inputs);
    std::optional<cache::Entry> cached;
    const auto warn = [&log](const std::string& message) {
        log << "optiml: warning: " << message << "\n";
    };
    std::optional<cache::EntryManifest> cached_manifest;
    if (!arch.key.empty())
        if (auto found = k.chain->fetch(arch.key, warn)) try {
                cached_manifest = cache::read_entry_manifest(found->entry);
                cached = std::move(found->entry);
            } catch (const cache::CacheError& e) {
                warn(std::string(e.what()) + "; retuned as if it had no entry");
            }
    if (cached) {
        row.cached_winner = search::format_candidate(cached_manifest->winner);
        row.recorded = recorded_interval(cached_manifest->time_ms);
    }
    if (replay) {
        if (cached) row.changes = changes_since(*cached_manifest, nullptr);
        retune_replayed(k, *replay, cached, row);
        return row;
    }
    const measure::DeviceInfo* device = devices.first_of(arch.number(), row.note);
    if (!device) {
        row.status = "skipped";
        return row;
    }
    if (cached) row.changes = changes_since(*cached_manifest, device);
    log << "optiml: retune: " << row.kernel << ": " << row.arch << ": tuning on " << device->name
        << "\n"
        << std::flush;
    try {
        retune_on_gpu(k, *device, devices.all(), inputs, cached, options, row, log);
    } catch (const std::exception& e) {
        row.status = "failed";
        row.note = e.what();
    }
    return row;
}

void log_row(const RetuneRow& row, std::ostream& log) {
    log << "optiml: retune: " << row.kernel << ": " << row.arch << ": " << row.status;
    if (row.new_now && row.cached_now)
        log << std::setprecision(4) << " (new " << row.new_now->median << " ms vs cached "
            << row.cached_now->median << " ms)";
    if (!row.note.empty()) log << ": " << row.note;
    log << "\n";
}

// The recordings given with --replay, by the name of the kernel each stands for. Throws
// search::RecordingError for an unreadable one or one that names no kernel.
std::map<std::string, search::Recording> read_replays(const std::vector<fs::path>& files) {
    std::map<std::string, search::Recording> replays;
    for (const auto& file : files) {
        search::Recording recording = search::read_recording(file);
        if (recording.kernel.empty())
            throw search::RecordingError(file.string() +
                                         ": kernel: missing; expected the spec's name of the "
                                         "kernel the recording stands for");
        replays[recording.kernel] = std::move(recording);
    }
    return replays;
}

// What one run carries from kernel to kernel.
struct RetuneRun {
    const RetuneOptions& options;
    std::ostream& log;
    std::map<std::string, search::Recording> replays;  // by the kernel name they give
    Devices devices;
    // A spec declared by several targets has one key per architecture: it is retuned once.
    std::map<std::string, std::string> retuned;  // new key -> the spec that took it
    RetuneReport report;
};

// A row for each of the kernel's architectures, none of them retuned, with the reason.
void add_unretuned_rows(RetuneRun& run, const identity::DeclaredKernel& kernel,
                        const std::string& status, const std::string& why) {
    for (const auto& arch : kernel.archs) {
        RetuneRow row;
        row.kernel = kernel.name;
        row.arch = arch.arch;
        row.spec = kernel.spec.string();
        row.old_key = arch.key;
        row.status = status;
        row.note = why;
        log_row(row, run.log);
        run.report.rows.push_back(std::move(row));
    }
}

// As the build compiled it: its target's flags and strategy (the baseline is the user's build),
// hence its key. Throws when the kernel or its LLM settings do not resolve.
void resolve_as_built(const identity::DeclaredKernel& kernel, const llm::LlmConfig& llm,
                      Kernel& k) {
    identity::ResolvedKernel resolved = identity::resolve_kernel(kernel);
    k.llm = tune::build_llm_config(resolved, llm);
    k.spec = std::move(resolved.spec);
    k.sources = std::move(resolved.sources);
    llm::validate(k.llm);
}

// Where the build looked its entries up: the local cache, then its seeds.
cache::LookupChain lookup_chain(const cache::Store& local, const std::vector<fs::path>& seeds) {
    cache::LookupChain chain;
    chain.add(std::make_unique<cache::LocalBackend>(local), "cache");
    for (const auto& seed : seeds)
        if (fs::is_directory(seed / "entries"))
            chain.add(std::make_unique<cache::LocalBackend>(cache::Store(seed, true)), "seed");
    return chain;
}

// A row for each architecture of `k` whose key no earlier kernel took. Throws
// tune::DeviceListError for a bad $OPTIML_DEVICES.
void retune_archs(RetuneRun& run, const Kernel& k) {
    const auto replay = run.replays.find(k.spec.name);
    for (const auto& arch : k.declared->archs) {
        const std::string key = cache::compute_key(k.inputs(arch.number()));
        if (const auto [done, fresh] = run.retuned.emplace(key, k.declared->spec.string());
            !fresh) {
            run.log << "optiml: retune: " << k.declared->name << ": " << arch.arch
                    << ": same key as " << done->second << ", retuned once\n";
            continue;
        }
        run.report.rows.push_back(
            retune_arch(k, arch, replay == run.replays.end() ? nullptr : &replay->second,
                        run.devices, run.options, run.log));
        log_row(run.report.rows.back(), run.log);
    }
}

// The kernel's rows: resolved as its build resolved it, looked up where its build looked.
void retune_kernel(RetuneRun& run, const identity::DeclaredKernel& kernel) {
    if (kernel.mode == "off") {
        add_unretuned_rows(run, kernel, "skipped", "OPTIML_MODE=off for this kernel");
        return;
    }
    Kernel k{&kernel, {}, {}, nullptr, nullptr, {}, {}};
    try {
        resolve_as_built(kernel, run.options.llm, k);
    } catch (const std::exception& e) {
        add_unretuned_rows(run, kernel, "failed", e.what());
        return;
    }
    tune::apply_budget_overrides(
        k.spec.budget, {{run.options.budget_evaluations, run.options.budget_seconds, std::nullopt},
                        {kernel.budget_evaluations, kernel.budget_seconds, std::nullopt}});
    cache::Store local(kernel.cache_dir);
    const cache::LookupChain chain = lookup_chain(local, kernel.seeds);
    k.local = &local;
    k.chain = &chain;
    k.llm_key = tune::llm_key_inputs(k.llm, k.spec.budget.strategy);
    retune_archs(run, k);
}

void warn_of_unclaimed_replays(const std::map<std::string, search::Recording>& replays,
                               const std::vector<identity::DeclaredKernel>& declared,
                               std::ostream& log) {
    for (const auto& [kernel_name, recording] : replays) {
        const std::string& name = kernel_name;  // clang 14's lambdas capture no bindings
        if (std::none_of(declared.begin(), declared.end(),
                         [&](const identity::DeclaredKernel& d) { return d.name == name; }))
            log << "optiml: warning: " << recording.file << " stands for kernel " << name
                << ", which the build does not declare\n";
    }
}

// retune-report.{json,md} in `dir`, created if needed. Throws when either cannot be written.
void write_report(const RetuneReport& report, const fs::path& dir) {
    fs::create_directories(dir);
    write_text(dir / "retune-report.json", nlohmann::json(report).dump(2) + "\n");
    write_text(dir / "retune-report.md", to_markdown(report));
}

void log_summary(const RetuneReport& report, const fs::path& dir, std::ostream& log) {
    log << "optiml: retune: " << report.rows.size() << " kernel/arch pairs, report in "
        << (dir / "retune-report.md").string() << "\n";
    for (const auto& row : report.rows)
        if (row.regression)
            log << "optiml: regression: " << row.kernel << " " << row.arch << ": "
                << row.regression_reason << "\n";
}

// A nightly job on a machine whose GPUs are gone (a driver update, a lost device) must not pass
// as if nothing regressed.
bool nothing_retuned(const RetuneReport& report) {
    return !report.rows.empty() &&
           std::all_of(report.rows.begin(), report.rows.end(),
                       [](const RetuneRow& row) { return row.status == "skipped"; });
}

}  // namespace

int run_retune(const RetuneOptions& options, std::ostream& log, RetuneReport* result) {
    RetuneRun run{options, log, {}, {}, {}, {}};
    std::vector<identity::DeclaredKernel> declared;
    try {
        declared = identity::read_declared_kernels(options.build_dir);
        run.replays = read_replays(options.replays);
    } catch (const std::runtime_error& e) {
        log << "optiml: error: " << e.what() << "\n";
        return 1;
    }
    run.report.created = tune::utc_now();
    run.report.build_dir = options.build_dir.string();
    try {
        for (const auto& kernel : declared) retune_kernel(run, kernel);
    } catch (const tune::DeviceListError& e) {
        log << "optiml: error: " << e.what() << "\n";
        return 1;
    }
    warn_of_unclaimed_replays(run.replays, declared, log);

    RetuneReport& report = run.report;
    mark_regressions(report, options.fail_on_regression.value_or(0.0));
    if (!options.fail_on_regression) report.threshold_percent.reset();
    const fs::path dir =
        options.report_dir.empty() ? options.build_dir / "optiml-retune" : options.report_dir;
    try {
        write_report(report, dir);
    } catch (const std::exception& e) {
        log << "optiml: error: " << e.what() << "\n";
        return 1;
    }
    log_summary(report, dir, log);
    if (result) *result = report;
    if (nothing_retuned(report)) {
        log << "optiml: error: nothing was retuned: no declared architecture has a GPU here (see "
               "`optiml devices`) and no --replay stands in for one\n";
        return 1;
    }
    return options.fail_on_regression && report.regressions() > 0 ? kRegressionStatus : 0;
}

}  // namespace optiml::retune
