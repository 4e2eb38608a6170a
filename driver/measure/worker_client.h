// The driver's side of the worker protocol (protocol.h): starts `optiml-worker`, exchanges
// JSON lines with a timeout, and replaces a worker that died or hung.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/base/subprocess.h"
#include "driver/measure/protocol.h"

namespace optiml::measure {

struct DeviceInfo {
    int index = 0;
    std::string name;
    int arch = 0;  // 90 for sm_90
    int sms = 0;
    long long l2_bytes = 0;
    int driver = 0;              // CUDA driver version, e.g. 13000
    long long memory_bytes = 0;  // global memory; 0 where the worker did not say
};

// `optiml-worker` next to the running executable, unless $OPTIML_WORKER names another.
std::filesystem::path default_worker_path();

// One worker process.
class WorkerProcess {
  public:
    // `quiet`: the worker's stderr goes to /dev/null (a probe on a machine without a CUDA
    // driver would otherwise print the loader's complaint into every build log).
    explicit WorkerProcess(std::filesystem::path executable, bool quiet = false);
    ~WorkerProcess();
    WorkerProcess(const WorkerProcess&) = delete;
    WorkerProcess& operator=(const WorkerProcess&) = delete;

    struct Reply {
        bool received = false;  // false: the worker died or timed out (and was stopped)
        nlohmann::json json;
        std::string failure;  // why nothing was received
        bool timed_out = false;
        bool not_started = false;  // the program could not be executed (`failure` says why)
    };
    Reply request(const nlohmann::json& message, std::chrono::milliseconds timeout);
    // Ends the worker (if any); the next request starts a fresh one.
    void stop();

  private:
    void start();
    std::filesystem::path executable_;
    bool quiet_;
    base::Subprocess process_;
    std::string buffer_;
};

// What a probe found: the GPUs the worker sees (none where there is no GPU or no CUDA driver), or
// why the worker itself could not be used. A missing or broken worker never reads as "no GPU".
struct DeviceProbe {
    std::vector<DeviceInfo> devices;
    // Non-empty: the worker was not found or did not start; says why, with its path.
    std::string problem;
    // Why there are no devices when nothing went wrong ("no CUDA driver on this machine").
    std::string note;

    // Why no device can be used: the problem, else the note.
    const std::string& why_none() const { return problem.empty() ? note : problem; }
};

DeviceProbe probe_devices(const std::filesystem::path& worker);

// A problem set up on one device, with the original kernel's reference outputs. Survives
// worker deaths: a fresh worker gets setup and reference replayed before the next candidate.
// Further problems (other sizes of it) may join on the same worker, each with its own reference.
class RemoteSession {
  public:
    RemoteSession(std::filesystem::path worker, int device, Problem problem, LaunchSpec original);

    // Another problem with its original launch, before start(); `label` names it in messages
    // ("n=1000003"). Returns its problem index for verify(): 1 for the first, then 2, ...
    int add_problem(Problem problem, LaunchSpec original, std::string label);

    // Throws std::runtime_error if the original kernel itself cannot run.
    void start();
    int device() const { return device_; }
    // `verified`: the candidate passed verification on an identical GPU (VerifierPool); the
    // worker only times it.
    Measurement evaluate(const LaunchSpec& launch, const TimingSpec& timing,
                         std::chrono::milliseconds timeout, const LaunchSpec* incumbent = nullptr,
                         bool verified = false);
    Measurement reverify(const LaunchSpec& launch, std::uint64_t seed,
                         std::chrono::milliseconds timeout);
    // Any other operation (the profiler's, driver/profile/profile_client.h) on this session's
    // worker, set up first; `reply.received` false: the worker died or hung, and the next
    // request sets a fresh one up. `why` says what failed when the set-up did (no request sent).
    std::optional<WorkerProcess::Reply> request(const nlohmann::json& message,
                                                std::chrono::milliseconds timeout,
                                                std::string& why);
    // Every correctness check, no timing, on the problem of index `problem_index`.
    Measurement verify(int problem_index, const LaunchSpec& launch,
                       std::chrono::milliseconds timeout);

  private:
    struct Extra {
        Problem problem;
        LaunchSpec original;
        std::string label;
    };
    bool set_up(int index, const Problem& problem, const LaunchSpec& original,
                const std::string& label, std::string& why);
    bool ensure_ready(std::string& why);
    Measurement exchange(const nlohmann::json& request, std::chrono::milliseconds timeout);
    WorkerProcess process_;
    int device_;
    Problem problem_;
    LaunchSpec original_;
    std::vector<Extra> extras_;  // problem index i + 1
    bool ready_ = false;
};

}  // namespace optiml::measure
