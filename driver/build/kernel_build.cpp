#include "driver/build/kernel_build.h"

#include <map>

#include "cache/store.h"
#include "driver/base/atomic_write.h"
#include "driver/build/detail/arch_resolver.h"
#include "driver/build/detail/original_images.h"
#include "driver/build/detail/size_plan.h"
#include "driver/codegen/launcher.h"
#include "driver/identity/build_manifest.h"
#include "driver/identity/compiler_choice.h"
#include "driver/identity/kernel_identity.h"
#include "driver/identity/kernel_key.h"
#include "driver/identity/target_flags.h"
#include "driver/spec/kernel_source.h"
#include "driver/spec/spec.h"
#include "driver/tune/budget_rules.h"
#include "driver/tune/compare_build.h"
#include "driver/tune/tuning.h"

namespace optiml::build {
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

std::string depfile_text(const fs::path& target, const spec::Spec& spec,
                         const identity::KernelSources& sources) {
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

codegen::Variant to_variant(const cache::Entry& entry, const cache::EntryManifest& manifest) {
    codegen::Variant variant;
    variant.arch = manifest.arch;
    variant.winner = manifest.winner;
    variant.lowered_name = manifest.lowered_name;
    variant.compiler = manifest.compiler_backend;
    auto file = [&](const char* role) -> std::string {
        auto it = entry.files.find(manifest.file(role));
        return it == entry.files.end() ? std::string{} : it->second;
    };
    variant.cubin = file("cubin");
    variant.ptx = file("ptx");
    variant.key = entry.key;
    variant.summary = "tuned: " + tune::entry_summary(manifest);
    return variant;
}

// The target's flags into `spec`, its architectures into `archs` (unless given), and a launcher
// written without variants where none exists yet: a kernel file that includes the generated
// header (its drop-in call site) compiles only with one there. False after an error was logged.
bool read_target(const BuildOptions& options, spec::Spec& spec, const fs::path& launcher,
                 std::vector<int>& archs, std::string& entry, std::ostream& log) {
    const identity::UserBuild build =
        identity::read_user_build({options.compile_commands, options.source_root,
                                   options.build_root, options.out_dir / "include"},
                                  spec, launcher);
    spec.target = build.flags;
    if (const std::string flag = identity::flag_needing_nvcc(spec.target);
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
void log_target_flags(const spec::Spec& spec, const identity::KernelSources& sources,
                      const std::string& entry, std::ostream& log) {
    const identity::DeviceOptions split =
        identity::device_options(spec.target.key_options, sources.device);
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

// The spec with the build's budget: its flags (CMake's BUDGET_*), then $OPTIML_BUDGET_*.
std::optional<spec::Spec> load_spec(const BuildOptions& options, std::ostream& log) {
    spec::Spec spec;
    try {
        spec = spec::load_spec(options.spec);
    } catch (const spec::SpecError& e) {
        log << "optiml: error: " << e.what() << "\n";
        return std::nullopt;
    }
    for (const std::string& warning : spec::default_mismatches(spec))
        log << "optiml: warning: " << spec.name << ": " << warning << "\n";
    tune::apply_budget_overrides(
        spec.budget, {{options.budget_evaluations, options.budget_seconds, options.strategy},
                      tune::budget_from_environment()});
    return spec;
}

// What the build manifest records of this kernel; each architecture's outcome is added to it.
identity::DeclaredKernel declare(const BuildOptions& options, const spec::Spec& spec) {
    identity::DeclaredKernel declared{fs::absolute(options.spec).lexically_normal(),
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
                                      llm::overrides_to_json(options.llm_flags)};
    for (const auto& seed : options.seeds) declared.seeds.push_back(fs::absolute(seed));
    return declared;
}

// What the launcher is generated from: the tuned variants, and the architectures left on the
// original kernel, grouped by why.
struct Outcome {
    std::vector<codegen::Variant> variants;
    std::vector<std::string> notes;
    std::map<std::string, std::vector<std::string>> fallbacks;  // why -> archs
    bool tuning_ran = false;  // it compiled the spec's host functions (or stopped the build)
};

// Every architecture's entry, or why it keeps the original kernel. False: the build must stop.
bool resolve_archs(const BuildOptions& options, const spec::Spec& spec,
                   const identity::KernelSources& sources, const std::vector<int>& archs,
                   identity::DeclaredKernel& declared, Outcome& outcome, std::ostream& log) {
    if (options.mode == Mode::Off) {
        outcome.notes.push_back("OPTIML_MODE=off: every architecture runs the original kernel");
        for (const int arch : options.archs)
            declared.archs.push_back({identity::arch_name(arch), "", "original", ""});
        return true;
    }
    detail::ArchResolver resolver(options, spec, sources, log);
    declared.cache_dir = resolver.cache_root();
    for (const int arch : archs) {
        std::optional<detail::ArchResult> result = resolver.resolve(arch);
        if (!result) return false;
        declared.archs.push_back(result->declared);
        if (result->entry) {
            codegen::Variant variant = to_variant(*result->entry, result->manifest);
            std::string note;
            variant.by_size = size_plan(*result->entry, result->manifest, variant, note);
            if (!note.empty()) outcome.notes.push_back(note);
            if (!variant.by_size.ranges.empty())
                log << "optiml: " << spec.name << ": " << variant.arch << ": dispatches "
                    << describe_plan(variant.by_size) << "\n";
            outcome.variants.push_back(std::move(variant));
        } else {
            outcome.fallbacks[result->fallback_reason].push_back(identity::arch_name(arch));
            outcome.notes.push_back(identity::arch_name(arch) + ": no tuned entry (key " +
                                    result->declared.key.substr(0, 12) + "); the original kernel");
        }
    }
    outcome.tuning_ran = resolver.tuning_ran();
    return true;
}

void warn_of_fallbacks(const BuildOptions& options, const spec::Spec& spec, const Outcome& outcome,
                       std::ostream& log) {
    for (const auto& [why, names] : outcome.fallbacks) {
        std::string list;
        for (const auto& a : names) list += (list.empty() ? "" : ", ") + a;
        log << "optiml: warning: " << spec.name << ": no tuned entry for " << list << " (" << why
            << "); using the original kernel. Tune on such a GPU, or commit its entries to a "
               "CACHE_SEED folder (optiml cache export).\n";
    }
    // Nothing was tuned for those archs, so the spec's comparison function and generators were
    // never compiled: one that does not compile is said here, not first on a GPU machine.
    if (!outcome.fallbacks.empty() && !outcome.tuning_ran)
        if (const auto problem = tune::host_functions_problem(spec, options.host_compiler))
            log << "optiml: warning: " << spec.name << ": " << *problem
                << "\nA tuning on a GPU would stop there; the build goes on with the original "
                   "kernel.\n";
}

// The launcher and header, the build manifest and the depfile.
void write_outputs(const BuildOptions& options, const spec::Spec& spec,
                   const std::vector<int>& archs, const identity::KernelSources& sources,
                   const Outcome& outcome, const identity::DeclaredKernel& declared,
                   std::ostream& log) {
    std::vector<codegen::Variant> originals;
    if (kernel_stays_in_its_file(spec, archs.front())) {
        std::vector<std::string> problems;
        originals = compile_originals(spec, archs, problems);
        for (const std::string& problem : problems)
            log << "optiml: warning: " << spec.name << ": " << problem << "\n";
    }
    const codegen::GeneratedFiles files =
        codegen::generate_launcher(spec, outcome.variants, outcome.notes, originals);
    codegen::write_generated_files(options.out_dir, spec.name, files);
    // Rewritten on every run (Ninja reads the depfile once and then forgets it): a reader sees
    // the old file or the new one.
    const auto replace = [](const fs::path& path, const std::string& text) {
        fs::create_directories(path.parent_path());
        base::write_file_atomically(path, text);
    };
    if (!options.manifest.empty())
        replace(options.manifest, nlohmann::json(declared).dump(2) + "\n");
    if (!options.depfile.empty())
        replace(options.depfile,
                depfile_text(options.out_dir / codegen::source_path(spec.name), spec, sources));
}

}  // namespace

int run_build(const BuildOptions& options, std::ostream& log) {
    std::optional<spec::Spec> loaded = load_spec(options, log);
    if (!loaded) return 1;
    spec::Spec& spec = *loaded;
    std::vector<int> archs = options.archs;
    std::string compile_entry;  // the file whose compile command gave the target's flags
    if (!options.compile_commands.empty()) {
        try {
            const fs::path source = options.out_dir / codegen::source_path(spec.name);
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
    const identity::ResolvedKernel resolved =
        identity::resolve_kernel(spec, spec.target, options.strategy);
    if (!compile_entry.empty()) log_target_flags(spec, resolved.sources, compile_entry, log);

    identity::DeclaredKernel declared = declare(options, spec);
    Outcome outcome;
    if (!resolve_archs(options, spec, resolved.sources, archs, declared, outcome, log)) return 1;
    warn_of_fallbacks(options, spec, outcome, log);
    try {
        write_outputs(options, spec, archs, resolved.sources, outcome, declared, log);
    } catch (const std::exception& e) {
        log << "optiml: error: " << spec.name << ": generating the launcher: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

}  // namespace optiml::build
