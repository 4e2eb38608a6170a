// The worker's side of measurement: one CUDA context on one device holding the problem's
// buffers, the original kernel's reference outputs, and the timing machinery.
// Lives only in the `optiml-worker` process (it links the CUDA driver API).
#pragma once

#include <cstdint>
#include <memory>

#include <nlohmann/json.hpp>

#include "driver/measure/protocol.h"
#include "driver/profile/profile_protocol.h"

namespace optiml::measure {

// {"devices":[{"index","name","arch","sms","l2_bytes","driver"}]}; empty list without a GPU.
nlohmann::json probe_devices();

class GpuSession {
  public:
    GpuSession(int device, Problem problem);  // throws std::runtime_error with the CUDA error
    ~GpuSession();
    GpuSession(const GpuSession&) = delete;
    GpuSession& operator=(const GpuSession&) = delete;

    // Runs the original kernel once on the inputs and keeps its outputs as the reference.
    Measurement run_reference(const LaunchSpec& launch);
    // Verifies a candidate (two poisoned runs, every trial against the reference), then times
    // it, interleaved with `incumbent` when given. `verified`: the verification already passed
    // on an identical GPU with the same inputs; only the inputs it leaves behind are restored.
    Measurement evaluate(const LaunchSpec& launch, const TimingSpec& timing,
                         const LaunchSpec* incumbent = nullptr, bool verified = false);
    // Verifies once more against the original on inputs drawn with seed offset `seed`.
    Measurement reverify(const LaunchSpec& launch, std::uint64_t seed);
    // Hardware counters (Range Profiler) and stall samples by line (PC sampling) of one
    // launch on the trial-1 inputs. Not verified here: only evaluated variants get profiled.
    profile::ProfileResult profile(const LaunchSpec& launch,
                                   const profile::ProfileRequest& request);
    // Every correctness check of evaluate(), without the timing (another problem size).
    Measurement verify(const LaunchSpec& launch);

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace optiml::measure
