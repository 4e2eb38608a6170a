#include "driver/cli/kernel_build.h"

#include <cstdlib>
#include <fstream>

#include "cache/store.h"
#include "driver/cli/compare_build.h"
#include "driver/cli/device_selection.h"
#include "driver/cli/gpu_lock.h"
#include "driver/cli/kernel_key.h"
#include "driver/cli/tuning.h"
#include "driver/codegen/launcher.h"
#include "driver/measure/worker_client.h"
#include "driver/spec/spec.h"

namespace optiml::cli {
namespace fs = std::filesystem;

std::optional<Mode> parse_mode(const std::string& text) {
    if (text == "auto") return Mode::Auto;
    if (text == "cache-only") return Mode::CacheOnly;
    if (text == "retune") return Mode::Retune;
    if (text == "off") return Mode::Off;
    return std::nullopt;
}

namespace {

// The depfile is rewritten on every run (Ninja reads it once and then forgets it).
void write_depfile(const fs::path& path, const std::string& contents) {
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
    return text + "\n";
}

codegen::Variant to_variant(const cache::Entry& entry) {
    codegen::Variant variant;
    variant.arch = entry.manifest.value("arch", "");
    variant.parameters = entry.manifest.value("parameters", search::Config{});
    variant.lowered_name = entry.manifest.value("lowered_name", "");
    auto file = [&](const char* kind) -> std::string {
        const std::string name = entry.manifest["files"].value(kind, "");
        auto it = entry.files.find(name);
        return it == entry.files.end() ? std::string{} : it->second;
    };
    variant.cubin = file("cubin");
    variant.ptx = file("ptx");
    variant.key = entry.key;
    variant.summary = "tuned: " + entry_summary(entry.manifest);
    return variant;
}

// The first usable entry for a key: the local cache, then each seed in order.
std::optional<cache::Entry> lookup(const std::string& key, cache::Store& local,
                                   const std::vector<cache::Store>& seeds, std::string& where,
                                   std::ostream& log) {
    auto try_store = [&](const cache::Store& store,
                         const std::string& label) -> std::optional<cache::Entry> {
        try {
            auto entry = store.get(key);
            if (entry) where = label;
            return entry;
        } catch (const cache::CacheError& e) {
            log << "optiml: warning: ignoring a damaged cache entry: " << e.what() << "\n";
            return std::nullopt;
        }
    };
    if (auto entry = try_store(local, "cache " + local.root().string())) return entry;
    for (const auto& seed : seeds)
        if (auto entry = try_store(seed, "seed " + seed.root().string())) return entry;
    return std::nullopt;
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

    const KernelSources sources = scan_sources(spec);
    const fs::path source = options.out_dir / codegen::source_path(spec.name);

    std::vector<codegen::Variant> variants;
    std::vector<std::string> notes;
    std::vector<std::string> fallbacks;  // archs left on the original kernel
    if (options.mode == Mode::Off) {
        notes.push_back("OPTIML_MODE=off: every architecture runs the original kernel");
    } else {
        cache::Store local(options.cache_dir.empty() ? cache::default_cache_dir()
                                                     : options.cache_dir);
        std::vector<cache::Store> seeds;
        // A seed folder with no entries yet (only its README, say) has nothing to offer.
        for (const auto& seed : options.seeds)
            if (fs::is_directory(seed / "entries")) seeds.emplace_back(seed, /*read_only=*/true);

        std::optional<std::vector<measure::DeviceInfo>> devices;  // probed on the first miss only
        for (const int arch : options.archs) {
            const cache::KeyInputs inputs = key_inputs(spec, sources, arch);
            const std::string key = cache::compute_key(inputs);
            const std::string tag = "optiml: " + spec.name + ": " + arch_name(arch) + ": ";
            std::string where;
            std::optional<cache::Entry> entry;
            entry = lookup(key, local, seeds, where, log);
            if (entry && options.mode != Mode::Retune) {
                log << tag << "cache hit " << key.substr(0, 12) << " (" << where
                    << "): " << entry_summary(entry->manifest) << "\n";
            } else if (options.mode == Mode::Auto || options.mode == Mode::Retune) {
                try {  // only the GPUs $OPTIML_DEVICES allows, the first of this arch timing
                    if (!devices)
                        devices =
                            allowed_devices(measure::probe_devices(measure::default_worker_path()),
                                            device_list_from_environment());
                } catch (const DeviceListError& e) {
                    log << "optiml: error: " << e.what() << "\n";
                    return 1;
                }
                const measure::DeviceInfo* device = nullptr;
                for (const auto& d : *devices)
                    if (d.arch == arch && !device) device = &d;
                if (device) {
                    log << tag << (entry ? "retuning " : "cache miss ") << key.substr(0, 12)
                        << "; tuning\n"
                        << std::flush;
                    GpuLock lock;
                    std::optional<cache::Entry> tuned;
                    try {
                        tuned = tune(
                            {&spec,
                             *device,
                             *devices,
                             key,
                             key_summary(inputs),
                             {spec.budget.evaluations, spec.budget.seconds, spec.budget.strategy},
                             options.host_compiler,
                             local.root()},
                            log);
                    } catch (const CompareBuildError& e) {
                        log << "optiml: error: " << e.what() << "\n";
                        return 1;
                    }
                    if (tuned) {
                        entry = std::move(tuned);
                        try {
                            local.remove(key);  // a retune replaces the old result
                            local.put(*entry);
                        } catch (const cache::CacheError& e) {
                            log << "optiml: warning: could not store the result: " << e.what()
                                << "\n";
                        }
                    }
                } else if (entry) {
                    log << tag << "no GPU of this architecture to retune on; cache hit "
                        << key.substr(0, 12) << " (" << where << ") kept\n";
                }
            }
            if (entry) {
                variants.push_back(to_variant(*entry));
            } else {
                fallbacks.push_back(arch_name(arch));
                notes.push_back(arch_name(arch) + ": no tuned entry (key " + key.substr(0, 12) +
                                "); the original kernel");
            }
        }
    }

    if (!fallbacks.empty()) {
        std::string list;
        for (const auto& a : fallbacks) list += (list.empty() ? "" : ", ") + a;
        log << "optiml: warning: " << spec.name << ": no tuned entry for " << list
            << " and no GPU of that architecture to tune on"
            << (options.mode == Mode::CacheOnly ? " (OPTIML_MODE=cache-only)" : "")
            << "; using the original kernel. Tune on such a GPU, or commit its entries to a "
               "CACHE_SEED folder (optiml cache export).\n";
    }

    try {
        const codegen::GeneratedFiles files = codegen::generate_launcher(spec, variants, notes);
        codegen::write_generated_files(options.out_dir, spec.name, files);
        if (!options.depfile.empty())
            write_depfile(options.depfile, depfile_text(source, spec, sources));
    } catch (const std::exception& e) {
        log << "optiml: error: " << spec.name << ": generating the launcher: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

}  // namespace optiml::cli
