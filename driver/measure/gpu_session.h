// The worker's side of measurement: one CUDA context on one device holding the problem's
// buffers, the original kernel's reference outputs, and the timing machinery.
// Lives only in the `optiml-worker` process (it links the CUDA driver API).
#pragma once

#include <memory>

#include <nlohmann/json.hpp>

#include "driver/measure/protocol.h"

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
    // Verifies a candidate against the reference, then times it.
    Measurement evaluate(const LaunchSpec& launch, const TimingSpec& timing);

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace optiml::measure
