// The manifest of a tuned kernel's entry as one typed record: what was timed, where, how it was
// found. to_json is its only writer and read_entry_manifest its only reader; every room that
// reads a tuned entry goes through them (docs/caching.md, "The manifest", lists the fields).
// Entries written before a field existed still read: an absent field is its default. The
// sections other rooms own and write whole (the trace, the timing conditions, the key's inputs,
// the tree, the evidence) stay JSON here; fields this record does not name (the store's "key"
// and "sha256", a signature) are kept in `other` and written back unchanged.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cache/store.h"
#include "driver/search/candidate.h"

namespace optiml::cache {

struct MeasuredTime {  // milliseconds over the timed runs
    double median = 0.0, min = 0.0, max = 0.0;
    int runs = 0;
};

struct TunedDevice {  // the GPU that timed the winner
    std::string name;
    int arch = 0;  // 90 for sm_90
    int sms = 0;
    int driver = 0;  // CUDA driver version, e.g. 13000
};

struct SearchRecord {
    std::string strategy;
    long long space_size = 0;
    int evaluations = 0;
    int correct = 0;
    double wall_s = 0.0;
    bool stopped_by_time = false;
    std::string stop_reason;  // why the search ended (search.h: Result::stop_reason); "" before
    int budget_evaluations = 0;
    bool budget_fitted = false;  // the evaluations were fitted to the space (no budget was given)
    double budget_seconds = 0.0;
    std::string budget_strategy;
    nlohmann::json throughput;  // tune/throughput.h's figures
    nlohmann::json tree;        // the transformation tree (search/tree_json.h); null when none ran
};

struct EntryManifest {
    int schema = 0;
    std::string name;          // the spec's
    std::string kernel;        // as written in the source
    std::string lowered_name;  // the mangled symbol in the images
    std::string arch;          // "sm_90"
    search::Candidate winner;  // "parameters", and "source_id", "transformations", "options"
    search::Config default_parameters;
    MeasuredTime time_ms, original_time_ms;  // of the condition timing.decided_by names
    double speedup = 0.0;
    TunedDevice device;
    std::vector<int> devices;  // CUDA indices of the GPUs used, the timing one first
    std::string nvrtc_version;
    std::string compiler_backend = "nvrtc";  // "nvrtc" or "nvcc"
    std::string compiler_version;
    std::string optiml_version;
    std::string created;  // "2026-12-01T17:25:20Z"
    SearchRecord search;
    std::map<std::string, std::string> files;  // role -> file name: cubin, ptx, source, evidence...
    nlohmann::json key_inputs;                 // what went into the key
    nlohmann::json tuned_with_llm;  // the key it was tuned under, on a copy kept without the LLM
    nlohmann::json verification;    // trials, tolerances, extra sizes, generators
    nlohmann::json timing;          // cold and warm L2 (tune/timing_conditions.h)
    nlohmann::json evidence;        // the profiler's summary; null when none
    nlohmann::json trace;           // every evaluated candidate, in order
    // Per problem of the spec (tune/size_tuning.h): each problem's search, every winner's time at
    // every problem, the dispatch chosen; null for a spec without problems.
    nlohmann::json sizes;
    nlohmann::json other = nlohmann::json::object();  // every field not named above

    // The file a role names, or empty.
    std::string file(const std::string& role) const;
};

nlohmann::json to_json(const EntryManifest& manifest);

// Throws CacheError naming `where` (the manifest's path or the entry's key) and the field when
// a field has the wrong type.
EntryManifest read_entry_manifest(const nlohmann::json& json, const std::string& where);
EntryManifest read_entry_manifest(const Entry& entry);

}  // namespace optiml::cache
