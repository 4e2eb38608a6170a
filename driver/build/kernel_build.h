// `optiml build`: what CMake runs for each optimize_kernel() call. For every architecture:
// cache key -> local cache -> seed caches -> tune (when the mode allows and a GPU of that
// architecture is here) -> else the original kernel, with one warning. Then the launcher.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "driver/llm/llm_config.h"
#include "driver/search/search.h"

namespace optiml::build {

enum class Mode { Auto, CacheOnly, Retune, Off };
std::optional<Mode> parse_mode(const std::string& text);
std::string mode_name(Mode mode);

struct BuildOptions {
    std::filesystem::path spec;
    std::vector<int> archs;  // 90, 80, ... (may be empty with compile_commands: the target's)
    Mode mode = Mode::Auto;
    std::filesystem::path out_dir;
    std::filesystem::path depfile;  // optional
    std::filesystem::path cache_dir;
    std::vector<std::filesystem::path> seeds;
    // The remote cache: URL (empty: $OPTIML_REMOTE_CACHE), mode read | read-write (empty:
    // $OPTIML_REMOTE_CACHE_MODE, else read), and trusted-keys files beyond each seed's own.
    std::string remote_cache;
    std::string remote_cache_mode;
    std::vector<std::filesystem::path> trusted_keys;
    std::optional<int> budget_evaluations;
    std::optional<double> budget_seconds;
    std::optional<std::string> strategy;  // overrides the spec's budget.strategy
    std::string host_compiler = "c++";    // compiles the spec's comparison function, if any
    // Optional: this kernel's file of the build manifest (build_manifest.h), rewritten each run.
    std::filesystem::path manifest;
    llm::LlmConfig llm;           // passed to each tuning (tune::TuneRequest::llm)
    llm::LlmOverrides llm_flags;  // the flags in `llm`, for the build manifest (retune)
    // The user's build (target_flags.h): empty compile_commands, none (the kernel compiled with
    // OptiML's options only). With one, `archs` empty means the target's own architectures.
    std::filesystem::path compile_commands;
    std::filesystem::path source_root;
    std::filesystem::path build_root;
};

// Returns the process exit status; messages go to `log`.
int run_build(const BuildOptions& options, std::ostream& log);

}  // namespace optiml::build
