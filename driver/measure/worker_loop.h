// optiml-worker's request loop (protocol.h): one line of JSON in, one out, over a session per
// problem. Operations beyond measurement (profiling and calibration, driver/profile/) are
// handed in by the program's main(), so that measure/ depends on nothing above it.
#pragma once

#include <functional>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "driver/measure/gpu_session.h"

namespace optiml::measure {

struct WorkerOp {
    bool needs_session = true;  // the request's problem must have been set up
    // The reply; `session` is null only where needs_session is false. May throw: the loop
    // replies with the exception's message.
    std::function<nlohmann::json(const nlohmann::json& request, GpuSession* session)> run;
};

// Serves stdin until it closes; returns the process's exit status (3 after a fatal CUDA error:
// the context is unusable and the driver starts a new worker).
int serve_worker(const std::map<std::string, WorkerOp>& extra_ops);

}  // namespace optiml::measure
