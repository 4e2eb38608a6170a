// The worker's side of measurement: one CUDA context on one device holding the problem's
// buffers, the original kernel's reference outputs, and the timing machinery.
// Lives only in the `optiml-worker` process (it links the CUDA driver API).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <cuda.h>
#include <nlohmann/json.hpp>

#include "driver/measure/protocol.h"

namespace optiml::measure {

// {"devices":[{"index","name","arch","sms","l2_bytes","driver"}]}; empty list without a GPU.
nlohmann::json probe_devices();

// A candidate's module loaded in the session's context, unloaded with it.
struct LoadedKernel {
    CUmodule module = nullptr;
    CUfunction function = nullptr;
    struct Symbol {
        CUdeviceptr ptr = 0;
        std::size_t bytes = 0;
    };
    std::vector<Symbol> constants;  // each __constant__ symbol of the problem, in its order
    LoadedKernel() = default;
    LoadedKernel(const LoadedKernel&) = delete;
    LoadedKernel& operator=(const LoadedKernel&) = delete;
    ~LoadedKernel() {
        if (module) cuModuleUnload(module);
    }
};

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
    // Every correctness check of evaluate(), without the timing (another problem size).
    Measurement verify(const LaunchSpec& launch);

    // What a profiler needs (driver/profile/detail/session_profiler.h), on the trial-1 inputs.
    CUcontext context() const;
    CUdevice device() const;
    // Loads `launch`'s image; `why` says what failed.
    CUresult load(const LaunchSpec& launch, LoadedKernel& kernel, std::string& why);
    // Trial-1 inputs restored, outputs poisoned, L2 evicted by reading the clean flush buffer.
    CUresult prepare_cold();
    CUresult launch_once(const LaunchSpec& launch, CUfunction function);
    // One launch after prepare_cold(), in ms; throws std::runtime_error when it fails.
    double time_cold(const LaunchSpec& launch, CUfunction function);
    CUresult flush_l2();

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace optiml::measure
