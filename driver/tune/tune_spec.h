// `optiml tune --spec`: resolve the kernel (as a build compiles it, with --build-dir), choose the
// GPU, verify against a reference if one is given, tune, then replace the spec's entry in the
// local cache. `optiml synth` ends the same way once its kernel is verified.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "driver/llm/llm_config.h"
#include "driver/measure/worker_client.h"
#include "driver/search/search.h"
#include "driver/spec/spec.h"

namespace optiml::tune {

struct SpecTuning {
    const spec::Spec* spec = nullptr;
    measure::DeviceInfo device;                // times every variant
    std::vector<measure::DeviceInfo> allowed;  // GPUs that may verify beside it
    search::Budget budget;
    std::string host_compiler = "c++";
    std::filesystem::path cache_root;
    llm::LlmConfig llm;
};

// The key the entry was stored under, or nullopt when the tuning failed (details in `log`).
// Throws CompareBuildError (compare_build.h) when the spec's comparison function does not compile.
std::optional<std::string> tune_and_store(const SpecTuning& request, std::ostream& log);

struct TuneOptions {
    std::filesystem::path spec;
    std::filesystem::path build_dir;  // empty: the kernel as the spec alone compiles it
    int device = 0;
    std::filesystem::path cache_dir;  // empty: cache::default_cache_dir()
    std::optional<int> evaluations;   // overrides of the spec's budget
    std::optional<double> seconds;
    std::optional<std::string> strategy;
    std::string host_compiler = "c++";
    llm::LlmOverrides llm;            // the command's flags, over the environment's settings
    std::filesystem::path reference;  // --reference, or empty
    std::string reference_entry;
};

// The exit status: 0 tuned and stored; 1 a bad input, a failed check or tuning (each said on
// `err`); 2 no such CUDA device.
int run_tune(const TuneOptions& options, std::ostream& out, std::ostream& err);

}  // namespace optiml::tune
