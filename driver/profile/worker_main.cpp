// optiml-worker: runs candidates on one GPU for the `optiml` driver (driver/measure/protocol.h).
// A crash, a sticky CUDA error or a hang ends this process, never the driver or the user's
// build. Measurement is measure/'s loop; this program adds the profiler's operations to it.
#include "driver/measure/worker_loop.h"
#include "driver/profile/detail/calibration_runner.h"
#include "driver/profile/detail/session_profiler.h"

int main() {
    using optiml::measure::GpuSession;
    using optiml::measure::WorkerOp;
    const std::map<std::string, WorkerOp> profiling = {
        {"calibrate",
         {false,
          [](const nlohmann::json& request, GpuSession*) -> nlohmann::json {
              return optiml::profile::run_calibration(request.at("device").get<int>(),
                                                      request.at("image").get<std::string>());
          }}},
        {"profile",
         {true,
          [](const nlohmann::json& request, GpuSession* session) -> nlohmann::json {
              return optiml::profile::profile_launch(
                  *session, request.at("launch").get<optiml::measure::LaunchSpec>(),
                  request.at("request").get<optiml::profile::ProfileRequest>());
          }}},
    };
    return optiml::measure::serve_worker(profiling);
}
