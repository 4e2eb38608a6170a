// What `optiml tune --spec` does once it has a spec and a GPU: tune, then replace the spec's
// entry in the local cache. `optiml synth` ends the same way once its kernel is verified.
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

}  // namespace optiml::tune
