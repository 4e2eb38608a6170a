#include "driver/tune/kernel_build.h"

#include <cstdlib>
#include <fstream>
#include <map>

#include "cache/build_cache.h"
#include "cache/store.h"
#include "driver/codegen/launcher.h"
#include "driver/measure/worker_client.h"
#include "driver/search/candidate_json.h"
#include "driver/spec/kernel_source.h"
#include "driver/spec/spec.h"
#include "driver/tune/build_manifest.h"
#include "driver/tune/compare_build.h"
#include "driver/tune/compiler_choice.h"
#include "driver/tune/device_selection.h"
#include "driver/tune/gpu_lock.h"
#include "driver/tune/kernel_identity.h"
#include "driver/tune/kernel_key.h"
#include "driver/tune/original_images.h"
#include "driver/tune/target_flags.h"
#include "driver/tune/tuning.h"

namespace optiml::tune {
namespace fs = std::filesystem;

std::optional<Mode> parse_mode(const std::string& text) {
    if (text == "auto") return Mode::Auto;
    if (text == "cache-only") return Mode::CacheOnly;
    if (text == "retune") return Mode::Retune;
    if (text == "off") return Mode::Off;
    return std::nullopt;
}

std::string mode_name(Mode mode) {
    switch (mode) {
        case Mode::Auto:
            return "auto";
        case Mode::CacheOnly:
            return "cache-only";
        case Mode::Retune:
            return "retune";
        case Mode::Off:
            return "off";
    }
    return "auto";
}

namespace {

// The depfile and the build manifest are rewritten on every run (Ninja reads the depfile once and
// then forgets it): temporary file + rename, so a reader sees the old file or the new one.
void replace_file(const fs::path& path, const std::string& contents) {
    fs::create_directories(path.parent_path());
    const fs::path temporary = path.string() + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << contents;
        if (!out) throw std::runtime_error("cannot write " + temporary.string());
    }
    fs::rename(temporary, path);
}

std::string depfile_text(const fs::path& target, const spec::Spec& spec,
                         const KernelSources& sources) {
    auto escape = [](const std::string& path) {
        std::string out;
        for (char c : path) {
            if (c == ' ' || c == '#' || c == '\\') out += '\\';
            if (c == '$') out += '$';
            out += c;
        }
        return out;
    };
    std::string text = escape(target.string()) + ":";
    text += " \\\n  " + escape(spec.file.string());
    for (const auto& file : sources.files) text += " \\\n  " + escape(file.path.string());
    for (const auto& file : sources.compare_files) text += " \\\n  " + escape(file.path.string());
    for (const auto& generator : sources.generator_files)
        for (const auto& file : generator) text += " \\\n  " + escape(file.path.string());
    for (const auto& data : sources.data_files) text += " \\\n  " + escape(data.path.string());
    return text + "\n";
}

codegen::Variant to_variant(const cache::Entry& entry) {
    codegen::Variant variant;
    variant.arch = entry.manifest.value("arch", "");
    variant.parameters = entry.manifest.value("parameters", search::Config{});
    variant.lowered_name = entry.manifest.value("lowered_name", "");
    if (const auto compiler = entry.manifest.find("compiler");
        compiler != entry.manifest.end() && compiler->is_object())
        variant.compiler = compiler->value("backend", "nvrtc");
    auto file = [&](const char* kind) -> std::string {
        const std::string name = entry.manifest["files"].value(kind, "");
        auto it = entry.files.find(name);
        return it == entry.files.end() ? std::string{} : it->second;
    };
    variant.cubin = file("cubin");
    variant.ptx = file("ptx");
    variant.key = entry.key;
    variant.summary = "tuned: " + entry_summary(entry.manifest);
    const search::Candidate winner = search::read_candidate(entry.manifest);
    variant.source_id = winner.source_id;
    variant.transformations = winner.transformations;
    variant.options = winner.options;
    return variant;
}

// The target's flags into `spec`, its architectures into `archs` (unless given), and a launcher
// written without variants where none exists yet: a kernel file that includes the generated
// header (its drop-in call site) compiles only with one there. False after an error was logged.
bool read_target(const BuildOptions& options, spec::Spec& spec, const fs::path& launcher,
                 std::vector<int>& archs, std::string& entry, std::ostream& log) {
    const UserBuild build = read_user_build({options.compile_commands, options.source_root,
                                             options.build_root, options.out_dir / "include"},
                                            spec, launcher);
    spec.target = build.flags;
    if (const std::string flag = flag_needing_nvcc(spec.target);
        spec.compiler == "nvrtc" && !flag.empty()) {
        log << "optiml: error: " << spec.file.string() << ": compiler: \"nvrtc\", but the target "
            << "compiles the kernel with " << flag << ", which NVRTC does not reproduce; set "
            << "\"compiler\" to \"auto\" or \"nvcc\" (docs/spec.md, Compiler)\n";
        return false;
    }
    if (archs.empty()) archs = build.archs;
    entry = fs::path(build.entry).filename().string();
    if (!fs::exists(options.out_dir / codegen::header_path(spec.name))) {
        const codegen::GeneratedFiles files = codegen::generate_launcher(spec, {}, {});
        codegen::write_generated_files(options.out_dir, spec.name, files);
    }
    return true;
}

// Which of the target's flags the key holds, and which it leaves out because the device code
// cannot see them (a Release build's -DNDEBUG for a kernel without assert).
void log_target_flags(const spec::Spec& spec, const KernelSources& sources,
                      const std::string& entry, std::ostream& log) {
    const DeviceOptions split = device_options(spec.target.key_options, sources.device);
    auto joined = [](const std::vector<std::string>& options) {
        std::string text;
        for (const std::string& option : options) text += " " + option;
        return text;
    };
    log << "optiml: " << spec.name
        << ": the target's flags:" << (split.kept.empty() ? " none" : joined(split.kept)) << " ("
        << entry << ")";
    if (!split.left_out.empty())
        log << "; left out of the key, as they cannot change the device code:"
            << joined(split.left_out);
    log << "\n";
}

}  // namespace

int run_build(const BuildOptions& options, std::ostream& log) {
    spec::Spec spec;
    try {
        spec = spec::load_spec(options.spec);
    } catch (const spec::SpecError& e) {
        log << "optiml: error: " << e.what() << "\n";
        return 1;
    }
    for (const std::string& warning : spec::default_mismatches(spec))
        log << "optiml: warning: " << spec.name << ": " << warning << "\n";
    // Budget overrides: the command line (CMake's BUDGET_*), else the environment (a CI job that
    // wants a quick tune everywhere), else the spec.
    if (options.budget_evaluations)
        spec.budget.evaluations = *options.budget_evaluations;
    else if (const char* env = std::getenv("OPTIML_BUDGET_EVALUATIONS"); env && std::atoi(env) > 0)
        spec.budget.evaluations = std::atoi(env);
    if (options.budget_seconds)
        spec.budget.seconds = *options.budget_seconds;
    else if (const char* env = std::getenv("OPTIML_BUDGET_SECONDS"); env && std::atof(env) > 0)
        spec.budget.seconds = std::atof(env);
    if (options.strategy) spec.budget.strategy = *options.strategy;

    const fs::path source = options.out_dir / codegen::source_path(spec.name);
    std::vector<int> archs = options.archs;
    std::string compile_entry;  // the file whose compile command gave the target's flags
    if (!options.compile_commands.empty()) {
        try {
            if (!read_target(options, spec, source, archs, compile_entry, log)) return 1;
        } catch (const std::exception& e) {
            log << "optiml: error: " << spec.name << ": " << e.what() << "\n";
            return 1;
        }
    }
    if (archs.empty()) {
        log << "optiml: error: " << spec.name << ": no architecture to build for; pass --archs or "
            << "a compile command with -arch/--generate-code\n";
        return 1;
    }
    // The same resolution `tune`, `cache key`, `profile` and `retune` make from the manifest.
    const ResolvedKernel resolved = resolve_kernel(spec, spec.target, options.strategy);
    const KernelSources& sources = resolved.sources;
    if (!compile_entry.empty()) log_target_flags(spec, sources, compile_entry, log);

    std::vector<codegen::Variant> variants;
    std::vector<std::string> notes;
    std::map<std::string, std::vector<std::string>> fallbacks;  // why -> archs on the original
    bool tuning_ran = false;  // it compiles the spec's host functions (or stops the build)
    DeclaredKernel declared{fs::absolute(options.spec).lexically_normal(),
                            spec.name,
                            mode_name(options.mode),
                            {},
                            {},
                            options.host_compiler,
                            options.budget_evaluations,
                            options.budget_seconds,
                            options.strategy,
                            {},
                            spec.target,
                            options.llm_flags};
    for (const auto& seed : options.seeds) declared.seeds.push_back(fs::absolute(seed));
    if (options.mode == Mode::Off) {
        notes.push_back("OPTIML_MODE=off: every architecture runs the original kernel");
        for (const int arch : options.archs)
            declared.archs.push_back({arch_name(arch), "", "original", ""});
    } else {
        const auto warn = [&log](const std::string& message) {
            log << "optiml: warning: " << message << "\n";
        };
        // Local cache, seeds, remote (docs/caching.md); a bad URL or trusted-keys file stops here.
        cache::BuildCache caches(
            {options.cache_dir, options.seeds,
             cache::remote_config(options.remote_cache, options.remote_cache_mode),
             options.trusted_keys},
            warn);
        declared.cache_dir = caches.local().root();

        // Probed on the first miss only; `problem` set: the worker could not be used (not the
        // same as "no GPU").
        std::optional<measure::DeviceProbe> probe;
        // With an LLM taking part the key holds its model and prompts; `base_key` is that of the
        // same inputs without it (docs/caching.md, "The LLM").
        const cache::LlmKeyInputs llm = llm_key_inputs(options.llm, spec.budget.strategy);
        // The compiler choice's probe compiles once, not on every run (compiler_choice.h).
        compile::ImageCache images(compile::image_cache_dir(caches.local().root()));
        for (const int arch : archs) {
            const cache::KeyInputs inputs = key_inputs(spec, sources, arch, llm, &images);
            const std::string key = cache::compute_key(inputs);
            const cache::KeyInputs base_inputs = key_inputs(spec, sources, arch);
            const std::string base_key = cache::compute_key(base_inputs);
            const std::string tag = "optiml: " + spec.name + ": " + arch_name(arch) + ": ";
            std::string where;
            bool tuned_here = false;
            std::optional<cache::Entry> entry;
            // Why this arch keeps the original kernel, should it end without an entry.
            std::string fallback_reason = options.mode == Mode::CacheOnly
                                              ? "OPTIML_MODE=cache-only"
                                              : "no GPU of that architecture to tune on";
            if (auto found = caches.fetch(key)) {
                entry = std::move(found->entry);
                where = std::move(found->where);
            }
            if (entry && options.mode != Mode::Retune) {
                log << tag << "cache hit " << key.substr(0, 12) << " (" << where
                    << "): " << entry_summary(entry->manifest) << "\n";
            } else if (options.mode == Mode::Auto || options.mode == Mode::Retune) {
                try {  // only the GPUs $OPTIML_DEVICES allows, the first of this arch timing
                    if (!probe) {
                        probe = measure::probe_devices(measure::default_worker_path());
                        probe->devices =
                            allowed_devices(probe->devices, device_list_from_environment());
                    }
                } catch (const DeviceListError& e) {
                    log << "optiml: error: " << e.what() << "\n";
                    return 1;
                }
                const measure::DeviceInfo* device = nullptr;
                for (const auto& d : probe->devices)
                    if (d.arch == arch && !device) device = &d;
                if (!probe->problem.empty()) fallback_reason = "cannot tune: " + probe->problem;
                if (device) {
                    log << tag << (entry ? "retuning " : "cache miss ") << key.substr(0, 12)
                        << "; tuning\n"
                        << std::flush;
                    GpuLock lock;
                    tuning_ran = true;
                    std::optional<cache::Entry> tuned;
                    std::string failure;
                    try {
                        tuned = run_tuning(
                            {&spec,
                             *device,
                             probe->devices,
                             key,
                             key_summary(inputs),
                             {spec.budget.evaluations, spec.budget.seconds, spec.budget.strategy},
                             options.host_compiler,
                             caches.local().root(),
                             options.llm,
                             options.seeds},
                            log, &failure);
                    } catch (const CompareBuildError& e) {
                        log << "optiml: error: " << e.what() << "\n";
                        return 1;
                    }
                    if (!tuned && !entry)
                        fallback_reason = "tuning on " + device->name + " failed: " + failure +
                                          " (details above)";
                    if (tuned) {
                        entry = std::move(tuned);
                        tuned_here = true;
                        if (caches.store(*entry))  // locally; signed to a read-write remote
                            log << tag << "published " << key.substr(0, 12)
                                << " to the remote cache\n";
                        // Builds without the endpoint get it too, unless they have their own.
                        if (key != base_key && !caches.fetch(base_key))
                            caches.store(
                                llm_entry_for_base_key(*entry, base_key, key_summary(base_inputs)));
                    }
                } else if (entry) {
                    log << tag << "no GPU of this architecture to retune on; cache hit "
                        << key.substr(0, 12) << " (" << where << ") kept\n";
                }
            }
            if (!entry && key != base_key) {
                // Nothing tuned with this model, and no tuning here: the entry tuned without the
                // LLM is verified too, and better than the original kernel.
                if (auto found = caches.fetch(base_key)) {
                    entry = std::move(found->entry);
                    where = std::move(found->where);
                    log << tag << "no entry tuned with the LLM model '" << llm.model << "' ("
                        << key.substr(0, 12) << "); cache hit " << base_key.substr(0, 12) << " ("
                        << where << ", tuned without it): " << entry_summary(entry->manifest)
                        << "\n";
                }
            }
            declared.archs.push_back({arch_name(arch), entry ? entry->key : key,
                                      !entry       ? "original"
                                      : tuned_here ? "tuned"
                                                   : "hit",
                                      entry && !tuned_here ? where : ""});
            if (entry) {
                variants.push_back(to_variant(*entry));
            } else {
                fallbacks[fallback_reason].push_back(arch_name(arch));
                notes.push_back(arch_name(arch) + ": no tuned entry (key " + key.substr(0, 12) +
                                "); the original kernel");
            }
        }
    }

    for (const auto& [why, names] : fallbacks) {
        std::string list;
        for (const auto& a : names) list += (list.empty() ? "" : ", ") + a;
        log << "optiml: warning: " << spec.name << ": no tuned entry for " << list << " (" << why
            << "); using the original kernel. Tune on such a GPU, or commit its entries to a "
               "CACHE_SEED folder (optiml cache export).\n";
    }
    // Nothing was tuned for those archs, so the spec's comparison function and generators were
    // never compiled: one that does not compile is said here, not first on a GPU machine.
    if (!fallbacks.empty() && !tuning_ran)
        if (const auto problem = host_functions_problem(spec, options.host_compiler))
            log << "optiml: warning: " << spec.name << ": " << *problem
                << "\nA tuning on a GPU would stop there; the build goes on with the original "
                   "kernel.\n";

    try {
        std::vector<codegen::Variant> originals;
        if (kernel_stays_in_its_file(spec, archs.front())) {
            std::vector<std::string> problems;
            originals = compile_originals(spec, archs, problems);
            for (const std::string& problem : problems)
                log << "optiml: warning: " << spec.name << ": " << problem << "\n";
        }
        const codegen::GeneratedFiles files =
            codegen::generate_launcher(spec, variants, notes, originals);
        codegen::write_generated_files(options.out_dir, spec.name, files);
        if (!options.manifest.empty())
            replace_file(options.manifest, nlohmann::json(declared).dump(2) + "\n");
        if (!options.depfile.empty())
            replace_file(options.depfile, depfile_text(source, spec, sources));
    } catch (const std::exception& e) {
        log << "optiml: error: " << spec.name << ": generating the launcher: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

}  // namespace optiml::tune
