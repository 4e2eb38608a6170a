#include "driver/measure/worker_client.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "driver/measure/detail/generator_library.h"

namespace optiml::measure {
namespace fs = std::filesystem;
namespace {

// What to do when the worker program cannot be used.
constexpr const char* kWorkerFix =
    "build or install optiml-worker beside optiml, or set OPTIML_WORKER to its path";

// How long an idle worker may take to exit once its input ends: a context teardown takes
// milliseconds; a tool wrapping the worker (compute-sanitizer's leak check) takes seconds.
constexpr std::chrono::milliseconds kWorkerExitGrace{10000};

bool cuda_driver_present() {
    void* library = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!library) return false;
    dlclose(library);
    return true;
}

}  // namespace

fs::path default_worker_path() {
    if (const char* path = std::getenv("OPTIML_WORKER"); path && *path) return path;
    std::error_code ec;
    fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return self.parent_path() / "optiml-worker";
}

WorkerProcess::WorkerProcess(fs::path executable, bool quiet)
    : executable_(std::move(executable)), quiet_(quiet) {}

WorkerProcess::~WorkerProcess() {
    // At the end of a session the worker is idle: end of input, and it exits by itself (a
    // hung one was already killed by the request that timed out).
    process_.finish(kWorkerExitGrace);
}

void WorkerProcess::start() {
    base::SpawnOptions options;
    options.arguments = {executable_.string()};
    options.search_path = false;
    options.input = base::SpawnOptions::Stream::Pipe;
    options.output = base::SpawnOptions::Stream::Pipe;
    if (quiet_) options.errors = base::SpawnOptions::Stream::Null;
    // Its own process group: stop() ends whatever the worker started too.
    options.own_process_group = true;
    // The pipes are close-on-exec: a worker started meanwhile for another GPU (VerifierPool) does
    // not keep this worker's pipe ends open, so its death reads as an end of file, not a hang. A
    // dead worker does not kill the driver on write (SIGPIPE ignored).
    if (const std::optional<base::SpawnFailure> failure = process_.start(options)) {
        switch (failure->step) {
            case base::SpawnFailure::Step::Pipe:
            case base::SpawnFailure::Step::LogFile:  // no log file here
                throw std::runtime_error("pipe: " + std::string(strerror(failure->error)));
            case base::SpawnFailure::Step::Fork:
                throw std::runtime_error("fork: " + std::string(strerror(failure->error)));
            case base::SpawnFailure::Step::Exec:
                break;
        }
        throw std::runtime_error("cannot execute " + executable_.string() + ": " +
                                 strerror(failure->error));
    }
    buffer_.clear();
}

void WorkerProcess::stop() {
    process_.kill();
}

WorkerProcess::Reply WorkerProcess::request(const nlohmann::json& message,
                                            std::chrono::milliseconds timeout) {
    Reply reply;
    if (!process_.running()) {
        try {
            start();
        } catch (const std::runtime_error& e) {
            reply.failure = e.what();
            reply.not_started = true;
            return reply;
        }
    }
    if (!process_.write_input(message.dump() + "\n")) {
        stop();
        reply.failure = "worker exited before the request";
        return reply;
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (auto newline = buffer_.find('\n'); newline != std::string::npos) {
            reply.json = nlohmann::json::parse(buffer_.substr(0, newline), nullptr, false);
            buffer_.erase(0, newline + 1);
            reply.received = !reply.json.is_discarded();
            if (!reply.received) reply.failure = "worker sent a malformed reply";
            return reply;
        }
        const base::Subprocess::Read read = process_.read_output(buffer_, deadline);
        if (read == base::Subprocess::Read::TimedOut) {
            stop();
            reply.timed_out = true;
            reply.failure =
                "no reply within " + std::to_string(timeout.count()) + " ms; worker killed";
            return reply;
        }
        if (read == base::Subprocess::Read::End) {
            const base::ExitStatus exit = process_.wait();
            stop();
            reply.failure = exit.signaled
                                ? "worker killed by signal " + std::to_string(exit.code)
                                : "worker exited with status " + std::to_string(exit.code);
            return reply;
        }
    }
}

DeviceProbe probe_devices(const fs::path& worker) {
    DeviceProbe probe;
    if (!fs::is_regular_file(worker)) {
        probe.problem = "the worker program " + worker.string() +
                        " does not exist (optiml runs optiml-worker from its own folder, or the "
                        "program $OPTIML_WORKER names); " +
                        kWorkerFix;
        return probe;
    }
    WorkerProcess process(worker, /*quiet=*/true);
    auto reply = process.request({{"op", "probe"}}, std::chrono::seconds(60));
    if (!reply.received || !reply.json.contains("devices")) {
        // The worker links the CUDA driver library: without one it cannot start, and that is a
        // machine without a GPU. Any other failure is the worker's own.
        if (reply.not_started) {
            probe.problem = reply.failure + " (the worker program); " + kWorkerFix;
        } else if (!cuda_driver_present()) {
            probe.note = "no CUDA driver on this machine (libcuda.so.1 not found)";
        } else {
            probe.problem = "the worker program " + worker.string() + " did not answer a probe (" +
                            (reply.received ? "reply without devices" : reply.failure) +
                            "); run it by hand to see why";
        }
        return probe;
    }
    for (const auto& d : reply.json["devices"]) {
        probe.devices.push_back({d.value("index", 0), d.value("name", ""), d.value("arch", 0),
                                 d.value("sms", 0), d.value("l2_bytes", 0LL), d.value("driver", 0),
                                 d.value("memory_bytes", 0LL)});
    }
    if (probe.devices.empty()) probe.note = "the CUDA driver lists no GPU";
    return probe;
}

namespace {

// "make_csr.cpp (fills row_ptr, col_idx); other.cpp (fills t)".
std::string describe_generators(const Problem& problem) {
    std::string text;
    for (const GeneratorSpec& generator : problem.generators)
        text += (text.empty() ? "" : "; ") + describe(generator);
    return text;
}

}  // namespace

RemoteSession::RemoteSession(fs::path worker, int device, Problem problem, LaunchSpec original)
    : process_(std::move(worker)),
      device_(device),
      problem_(std::move(problem)),
      original_(std::move(original)) {}

int RemoteSession::add_problem(Problem problem, LaunchSpec original, std::string label) {
    extras_.push_back({std::move(problem), std::move(original), std::move(label)});
    ready_ = false;
    return static_cast<int>(extras_.size());
}

bool RemoteSession::set_up(int index, const Problem& problem, const LaunchSpec& original,
                           const std::string& label, std::string& why) {
    // Buffers of several GB take a while to fill on the host: allow for it.
    const auto setup_timeout = std::chrono::minutes(5);
    const std::string at = label.empty() ? "" : " at " + label;
    nlohmann::json setup = {{"op", "setup"}, {"device", device_}, {"problem", problem}};
    nlohmann::json reference = {{"op", "reference"}, {"launch", original}};
    if (index > 0) setup["problem_index"] = reference["problem_index"] = index;
    auto reply = process_.request(setup, setup_timeout);
    if (!reply.received || !reply.json.value("ok", false)) {
        why = "worker setup failed" + at + ": " +
              (reply.received ? reply.json.value("message", "") : reply.failure);
        // A worker that died while filling buffers: a project generator crashed in it.
        if (!reply.received && !problem.generators.empty())
            why += " (the worker runs the spec's input generators while it fills the buffers: " +
                   describe_generators(problem) + ")";
        return false;
    }
    reply = process_.request(reference, setup_timeout);
    if (!reply.received || !reply.json.value("ok", false)) {
        const std::string failure =
            reply.received ? reply.json.value("message", "") : reply.failure;
        // On generated inputs the original kernel is the judge of the data, not a candidate:
        // its failure says the generator breaks an invariant the kernel relies on.
        if (problem.generators.empty())
            why = "the original kernel failed" + at + ": " + failure;
        else
            why = "the inputs the spec's generator made break the original kernel (" +
                  describe_generators(problem) + at + ": " + failure +
                  "); fix the generator so that its data meets the kernel's invariants (indices "
                  "in range, sizes that agree), or the kernel";
        return false;
    }
    return true;
}

bool RemoteSession::ensure_ready(std::string& why) {
    if (ready_) return true;
    if (!set_up(0, problem_, original_, "", why)) return false;
    for (std::size_t i = 0; i < extras_.size(); ++i)
        if (!set_up(static_cast<int>(i + 1), extras_[i].problem, extras_[i].original,
                    extras_[i].label, why))
            return false;
    ready_ = true;
    return true;
}

void RemoteSession::start() {
    std::string why;
    if (!ensure_ready(why)) throw std::runtime_error(why);
}

Measurement RemoteSession::exchange(const nlohmann::json& request,
                                    std::chrono::milliseconds timeout) {
    Measurement m;
    std::string why;
    if (!ensure_ready(why)) {
        m.status = "worker_died";
        m.message = why;
        return m;
    }
    auto reply = process_.request(request, timeout);
    if (!reply.received) {
        ready_ = false;
        m.status = reply.timed_out ? "timeout" : "worker_died";
        m.message = reply.failure;
        return m;
    }
    m = reply.json.get<Measurement>();
    if (m.fatal) {  // that worker is exiting; the next candidate gets a fresh one
        process_.stop();
        ready_ = false;
    }
    return m;
}

Measurement RemoteSession::evaluate(const LaunchSpec& launch, const TimingSpec& timing,
                                    std::chrono::milliseconds timeout, const LaunchSpec* incumbent,
                                    bool verified) {
    EvaluateRequest request{launch, timing, std::nullopt, verified};
    if (incumbent) request.incumbent = *incumbent;
    return exchange(request, timeout);
}

Measurement RemoteSession::reverify(const LaunchSpec& launch, std::uint64_t seed,
                                    std::chrono::milliseconds timeout) {
    return exchange({{"op", "reverify"}, {"launch", launch}, {"seed", seed}}, timeout);
}

Measurement RemoteSession::verify(int problem_index, const LaunchSpec& launch,
                                  std::chrono::milliseconds timeout) {
    return exchange({{"op", "verify"}, {"problem_index", problem_index}, {"launch", launch}},
                    timeout);
}

std::optional<WorkerProcess::Reply> RemoteSession::request(const nlohmann::json& message,
                                                           std::chrono::milliseconds timeout,
                                                           std::string& why) {
    if (!ensure_ready(why)) return std::nullopt;
    WorkerProcess::Reply reply = process_.request(message, timeout);
    if (!reply.received) ready_ = false;
    return reply;
}

}  // namespace optiml::measure
