// Tunes one kernel for one GPU: original kernel as the reference, the search over the spec's
// space, the winner's CUBIN (what was timed) plus PTX of the same source, stored as one cache
// entry. Progress goes to `log` as it happens.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cache/entry_manifest.h"
#include "cache/store.h"
#include "driver/llm/llm_config.h"
#include "driver/measure/worker_client.h"
#include "driver/search/search.h"
#include "driver/spec/spec.h"

namespace optiml::tune {

struct TuneRequest {
    const spec::Spec* spec = nullptr;
    measure::DeviceInfo device;  // times every candidate (and verifies some)
    // The GPUs that may take part ($OPTIML_DEVICES applied): those of the same model as `device`
    // verify candidates beside it (device_selection.h). Empty: `device` alone.
    std::vector<measure::DeviceInfo> devices;
    std::string key;
    nlohmann::json key_summary;  // what went into the key, recorded in the manifest
    search::Budget budget;
    std::string host_compiler = "c++";  // compiles the spec's comparison function, if any
    // Where the device's calibrated ceilings are cached (the local cache's root); empty:
    // calibrate every time. Profiling evidence is skipped when $OPTIML_PROFILE is "0".
    std::filesystem::path cache_root;
    // The LLM endpoint, replay and budget (environment and flags resolved; docs/llm.md), and the
    // seed caches whose llm/ folders hold recorded exchanges: llm::open_chat() takes these with
    // cache_root. llm.enabled() false: no LLM takes part.
    llm::LlmConfig llm;
    std::vector<std::filesystem::path> seeds;
};

// The spec's tuning space: its parameters, their defaults, and its constraints as validity (at
// the spec's problem size and at every size of check.extra_sizes).
search::Space tuning_space(const spec::Spec& spec);

// The new entry, or nullopt with the details written to `log` (the original kernel then stays)
// and, where `failure` is given, a one-line reason in it.
// Throws CompareBuildError (compare_build.h) when the spec's comparison function does not
// compile: a mistake in the project's code, which stops the build like a bad spec does.
std::optional<cache::Entry> run_tuning(const TuneRequest& request, std::ostream& log,
                                       std::string* failure = nullptr);

// Now, as the manifest's "created" records it: "2026-12-01T17:25:20Z".
std::string utc_now();

// One line: "block_size_x=512 items_per_thread=4, 0.081 ms vs original 0.240 ms (2.96x, cold L2;
// warm L2 2.10x) on NVIDIA H200": the times and first speedup are those of the condition that
// decided (timing_conditions.h).
std::string entry_summary(const cache::EntryManifest& manifest);

}  // namespace optiml::tune
