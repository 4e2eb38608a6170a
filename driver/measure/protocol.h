// What the driver and its `optiml-worker` process say to each other: one JSON object per line
// on the worker's stdin, one reply per line on its stdout.
//   {"op":"probe"}                                   ->
//   {"ok":true,"devices":[{index,name,arch,...}]}
//   {"op":"setup","device":D,"problem":{...}}        -> {"ok":true}   allocate and fill buffers
//   {"op":"reference","launch":{...}}                -> {"ok":true}   run the original, keep
//   outputs
//   {"op":"evaluate","launch":{...},"timing":{...}[,"incumbent":{...}][,"verified":true]}
//                                                    -> Measurement   verify, then time
//                                                       (interleaved with the incumbent when
//                                                       one is given). "verified":true skips
//                                                       the verification: it already passed on
//                                                       an identical GPU with the same inputs
//                                                       and binary (several GPUs, VerifierPool)
//   {"op":"reverify","launch":{...},"seed":S}        -> Measurement   verify once more on inputs
//                                                       drawn with seed offset S
//   {"op":"profile","launch":{...},"request":{...}}  -> profile::ProfileResult  counters and
//                                                       stall samples (profile_protocol.h)
//   {"op":"calibrate","device":D,"image":CUBIN}     -> profile::Calibration  device ceilings
//   {"op":"verify","launch":{...}}                   -> Measurement   verify only, no timing
// Every request may carry "problem_index":K (default 0). The worker holds one problem per index,
// each with its own buffers and reference: 0 is the spec's own size, 1.. its check.extra_sizes.
// A reply with "fatal":true means the worker's CUDA context is unusable and it is exiting; the
// driver starts a fresh worker, replays setup and reference, and goes on.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/measure/compare.h"
#include "driver/spec/spec.h"

namespace optiml::measure {

struct BufferSpec {
    std::string name;
    spec::ElementType type = spec::ElementType::Float32;
    bool is_pointer = false;
    double value = 0.0;     // scalars
    std::size_t count = 0;  // pointers and constants
    spec::Fill fill;
    spec::Role role = spec::Role::Input;
};

// A project's input generator (optiml/generate.h), built by the driver: one call per trial fills
// the named arguments and constants.
struct GeneratorSpec {
    std::string library;             // the shared object exporting optiml_generate
    std::string source;              // the spec's path of its source, for messages
    std::vector<std::string> fills;  // argument names in order, then constant names
};

// The problem every candidate of one kernel runs: arguments in order and __constant__ symbols.
struct Problem {
    std::vector<BufferSpec> arguments;
    std::vector<BufferSpec> constants;
    Tolerance tolerance;
    int trials = 3;               // correctness trials, each on its own inputs
    bool deterministic = true;    // two runs on the same inputs must agree bit for bit
    std::uint64_t seed_base = 0;  // added to every fill seed: fresh inputs for each tuning run
    // A shared object exporting optiml_compare (optiml/compare.h) that replaces the element-wise
    // comparison of outputs, and the spec's name for its source (for messages). Empty: none.
    std::string compare_library;
    std::string compare_source;
    std::vector<GeneratorSpec> generators;  // every library set before the worker gets it
};

struct LaunchSpec {
    std::string image_path;  // CUBIN file
    std::string symbol;      // lowered kernel name
    std::array<unsigned, 3> grid{1, 1, 1};
    std::array<unsigned, 3> block{1, 1, 1};
    unsigned shared_memory_bytes = 0;
};

struct TimingSpec {
    int warmup = 3;
    int min_runs = 10;
    int max_runs = 200;
    double relative_ci = 0.01;  // stop once the median's confidence interval is this narrow
    double cap_ms = 1000.0;     // or once this much kernel time is collected (per kernel)
    bool flush_l2 = true;       // overwrite a buffer of twice the L2 size before each timed run
    // Instead of flushing: every run uses the next of several copies of the argument buffers,
    // enough that the copies a run does not use hold twice the L2 size.
    bool rotate_inputs = false;
    // Also time warm: bursts of back-to-back launches with no flush (warm_plan.h), as a loop in a
    // program launches. `decide_warm`: that condition, not the cold one, fills the measurement's
    // median and interval (what the search decides with).
    bool warm = true;
    bool decide_warm = false;
};

struct Measurement {
    bool ok = false;
    // "ok"; or why it was rejected: "compile_error", "load_error", "launch_error", "timeout",
    // "worker_died", "unwritten", "nondeterministic", "mismatch", "input_modified"
    std::string status;
    std::string message;  // why it failed, for the trace and the log
    bool fatal = false;   // the worker is exiting
    double median_ms = 0.0;
    double min_ms = 0.0;
    double max_ms = 0.0;
    double ci_low_ms = 0.0;  // ~95% confidence interval of the median
    double ci_high_ms = 0.0;
    int runs = 0;
    bool launch_bound = false;  // so short that launch overhead dominates
    // The incumbent, re-timed in the same interleaved window (when one was sent).
    bool has_incumbent = false;
    double incumbent_median_ms = 0.0;
    double incumbent_ci_low_ms = 0.0;
    double incumbent_ci_high_ms = 0.0;
    int incumbent_runs = 0;
    double verify_ms = 0.0;  // wall time of verification and of timing, in the worker
    double timing_ms = 0.0;
    unsigned sm_clock_mhz = 0;  // clocks read right after the timed runs (0: unknown)
    unsigned memory_clock_mhz = 0;
    // How the timed runs started cold: "flush", "rotate" or "none" (empty: an older worker), and
    // over how many copies of the argument buffers they rotated (0 unless "rotate"). A rotation
    // that does not fit in device memory falls back to "flush".
    std::string cold_cache;
    int input_copies = 0;
    // Both conditions: median_ms, its interval and incumbent_median_ms above are those of
    // `decided_by` ("cold" or "warm"; empty: an older worker). Warm times are per launch, from
    // `warm_runs` bursts of `warm_burst` launches each; 0 when warm was not timed.
    std::string decided_by;
    double cold_median_ms = 0.0;
    double warm_median_ms = 0.0;
    double incumbent_cold_median_ms = 0.0;
    double incumbent_warm_median_ms = 0.0;
    int warm_runs = 0;
    int warm_burst = 0;
};

// An "evaluate" request, as it travels (the "op" included).
struct EvaluateRequest {
    LaunchSpec launch;
    TimingSpec timing;
    std::optional<LaunchSpec> incumbent;  // timed interleaved with the candidate
    bool verified = false;                // skip verification: it passed on an identical GPU
};

// The problem a spec describes, at the spec's scalar values or, given `size`, at that size.
Problem make_problem(const spec::Spec& spec, const spec::ProblemSize* size = nullptr);

// The timing the spec asks for: the defaults, with its cold-cache method.
TimingSpec make_timing(const spec::Spec& spec);

void to_json(nlohmann::json& json, const BufferSpec& buffer);
void from_json(const nlohmann::json& json, BufferSpec& buffer);
void to_json(nlohmann::json& json, const GeneratorSpec& generator);
void from_json(const nlohmann::json& json, GeneratorSpec& generator);
void to_json(nlohmann::json& json, const Problem& problem);
void from_json(const nlohmann::json& json, Problem& problem);
void to_json(nlohmann::json& json, const LaunchSpec& launch);
void from_json(const nlohmann::json& json, LaunchSpec& launch);
void to_json(nlohmann::json& json, const TimingSpec& timing);
void from_json(const nlohmann::json& json, TimingSpec& timing);
void to_json(nlohmann::json& json, const EvaluateRequest& request);
void from_json(const nlohmann::json& json, EvaluateRequest& request);
void to_json(nlohmann::json& json, const Measurement& measurement);
void from_json(const nlohmann::json& json, Measurement& measurement);

}  // namespace optiml::measure
