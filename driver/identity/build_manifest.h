// The build manifest: what kernels a build declared and what became of each. `optiml build`
// writes one file per kernel, <build dir>/optiml-kernels/<target>.<name>.json (so builds of
// several kernels at once never write the same file); `optiml retune` reads the folder back.
// docs/ci.md lists the fields.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/spec/spec.h"

namespace optiml::identity {

inline constexpr int kBuildManifestVersion = 1;

// The folder of the manifest files under a build directory.
std::filesystem::path declared_kernels_dir(const std::filesystem::path& build_dir);

struct DeclaredArch {
    std::string arch;    // "sm_90"
    std::string key;     // the cache key the build looked up ("" in mode off)
    std::string result;  // "hit", "tuned" or "original"
    std::string where;   // for a hit: the backend that answered ("cache", "seed")

    int number() const { return std::stoi(arch.substr(3)); }  // "sm_90" -> 90 (validated on read)
};

struct DeclaredKernel {
    std::filesystem::path spec;  // absolute
    std::string name;
    std::string mode;  // auto, cache-only, retune, off
    std::filesystem::path cache_dir;
    std::vector<std::filesystem::path> seeds;
    std::string host_compiler;
    std::optional<int> budget_evaluations;  // the build's overrides of the spec's budget
    std::optional<double> budget_seconds;
    // The build's override of the spec's budget.strategy (`optiml build --strategy`): retune
    // tunes with it, and computes the build's key (whether the LLM enters it depends on it).
    std::optional<std::string> strategy;
    std::vector<DeclaredArch> archs;
    // How the target compiles the kernel (read from its compile command): every command that
    // reproduces this build's key (`--build-dir`, retune) applies them.
    spec::TargetFlags target;
    // The LLM flags the build was given (CMake's LLM settings; never the API key), as
    // llm::overrides_to_json writes them: retune applies them over its own environment, as the
    // build did, so that both compute the same key (tune/llm_settings.h).
    nlohmann::json llm_flags = nlohmann::json::object();
};

void to_json(nlohmann::json& json, const DeclaredKernel& kernel);
void from_json(const nlohmann::json& json, DeclaredKernel& kernel);

class BuildManifestError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Every kernel declared under `build_dir`, sorted by spec then name. Throws BuildManifestError
// naming the file and the field (or the missing folder and how to make it).
std::vector<DeclaredKernel> read_declared_kernels(const std::filesystem::path& build_dir);

// The kernel of `spec_file` that the build under `build_dir` declared (the first target's, when
// several declare it). Throws BuildManifestError naming the folder when it declared none.
DeclaredKernel declared_kernel(const std::filesystem::path& build_dir,
                               const std::filesystem::path& spec_file);

}  // namespace optiml::identity
