// The driver's side of worker isolation, against a scripted worker (fake_worker.sh) that can
// answer, crash or hang on request: the real worker needs a GPU; these rules must hold in CI.
#include <dlfcn.h>

#include "driver/measure/worker_client.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace optiml::measure {
namespace {
namespace fs = std::filesystem;
using namespace std::chrono_literals;

class WorkerClientTest : public ::testing::Test {
  protected:
    void SetUp() override {
        log_ = fs::temp_directory_path() / ("fake-worker-" + std::to_string(::getpid()) + ".log");
        fs::remove(log_);
        setenv("FAKE_WORKER_LOG", log_.c_str(), 1);
    }
    void TearDown() override { fs::remove(log_); }
    int workers_started() const {
        std::ifstream in(log_);
        int lines = 0;
        for (std::string line; std::getline(in, line);) ++lines;
        return lines;
    }
    static LaunchSpec candidate(const std::string& behaviour) {
        LaunchSpec launch;
        launch.symbol = behaviour;
        launch.image_path = "/nonexistent";
        return launch;
    }
    fs::path log_;
};

TEST_F(WorkerClientTest, ProbeListsTheWorkersDevices) {
    const auto probe = probe_devices(OPTIML_FAKE_WORKER);
    ASSERT_EQ(probe.devices.size(), 1u);
    EXPECT_EQ(probe.devices[0].name, "Fake GPU");
    EXPECT_EQ(probe.devices[0].arch, 90);
    EXPECT_TRUE(probe.problem.empty()) << probe.problem;
}

// A missing worker is a broken install, not a machine without a GPU: the probe says so, with
// the path it looked at.
TEST_F(WorkerClientTest, AMissingWorkerIsReportedWithItsPathNotAsNoGpu) {
    const auto probe = probe_devices("/nonexistent/optiml-worker");
    EXPECT_TRUE(probe.devices.empty());
    EXPECT_NE(probe.problem.find("/nonexistent/optiml-worker does not exist"), std::string::npos)
        << probe.problem;
    EXPECT_NE(probe.why_none().find("OPTIML_WORKER"), std::string::npos);
}

TEST_F(WorkerClientTest, AWorkerThatCannotBeExecutedIsReportedAsSuch) {
    const auto probe = probe_devices("/etc/hostname");  // a file, not a program
    EXPECT_TRUE(probe.devices.empty());
    EXPECT_NE(probe.problem.find("cannot execute /etc/hostname"), std::string::npos)
        << probe.problem;
}

// A worker that starts and dies without answering is what a machine without libcuda gives (the
// loader stops it): "no GPU" there, and a problem with the worker where a CUDA driver exists.
TEST_F(WorkerClientTest, AWorkerThatDiesIsNoGpuOnlyWithoutACudaDriver) {
    const auto probe = probe_devices("/bin/false");
    EXPECT_TRUE(probe.devices.empty());
    void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (driver) {
        dlclose(driver);
        EXPECT_NE(probe.problem.find("/bin/false did not answer a probe"), std::string::npos)
            << probe.problem;
    } else {
        EXPECT_TRUE(probe.problem.empty()) << probe.problem;
        EXPECT_NE(probe.note.find("no CUDA driver"), std::string::npos) << probe.note;
    }
}

TEST_F(WorkerClientTest, ACrashFailsThatCandidateOnlyAndAFreshWorkerTakesOver) {
    RemoteSession session(OPTIML_FAKE_WORKER, 0, {}, candidate("ok"));
    session.start();
    const Measurement crashed = session.evaluate(candidate("crash"), {}, 10s);
    EXPECT_FALSE(crashed.ok);
    EXPECT_EQ(crashed.status, "worker_died");
    EXPECT_NE(crashed.message.find("status 9"), std::string::npos) << crashed.message;
    const Measurement next = session.evaluate(candidate("ok"), {}, 10s);
    EXPECT_TRUE(next.ok) << next.message;
    EXPECT_DOUBLE_EQ(next.median_ms, 1.5);
    EXPECT_EQ(workers_started(), 2);
}

TEST_F(WorkerClientTest, AHangIsCutOffByTheTimeoutAndTheWorkerKilled) {
    RemoteSession session(OPTIML_FAKE_WORKER, 0, {}, candidate("ok"));
    session.start();
    // The hung worker never answers: only the driver's own timeout ends the request.
    const Measurement hung = session.evaluate(candidate("hang"), {}, 300ms);
    EXPECT_EQ(hung.status, "timeout");
    EXPECT_TRUE(session.evaluate(candidate("ok"), {}, 10s).ok);
    EXPECT_EQ(workers_started(), 2);
}

TEST_F(WorkerClientTest, AStickyErrorReplyRestartsTheWorker) {
    RemoteSession session(OPTIML_FAKE_WORKER, 0, {}, candidate("ok"));
    session.start();
    const Measurement sticky = session.evaluate(candidate("sticky"), {}, 10s);
    EXPECT_EQ(sticky.status, "launch_error");
    EXPECT_TRUE(sticky.fatal);
    EXPECT_TRUE(session.evaluate(candidate("ok"), {}, 10s).ok);
    EXPECT_EQ(workers_started(), 2);
}

TEST_F(WorkerClientTest, AFreshWorkerGetsEveryProblemSizeSetUpAgain) {
    const fs::path requests = log_.string() + ".requests";
    setenv("FAKE_REQUEST_LOG", requests.c_str(), 1);
    RemoteSession session(OPTIML_FAKE_WORKER, 0, {}, candidate("ok"));
    EXPECT_EQ(session.add_problem({}, candidate("ok"), "n=1000003"), 1);
    EXPECT_EQ(session.add_problem({}, candidate("ok"), "n=7"), 2);
    session.start();
    EXPECT_FALSE(session.verify(1, candidate("crash"), 10s).ok);
    EXPECT_TRUE(session.verify(2, candidate("ok"), 10s).ok);
    unsetenv("FAKE_REQUEST_LOG");
    std::ifstream in(requests);
    std::vector<std::string> sent;
    for (std::string line; std::getline(in, line);) {
        const auto op = nlohmann::json::parse(line);
        sent.push_back(op.at("op").get<std::string>() +
                       std::to_string(op.value("problem_index", 0)));
    }
    fs::remove(requests);
    const std::vector<std::string> expected{
        "setup0", "reference0", "setup1", "reference1", "setup2", "reference2", "verify1",
        "setup0", "reference0", "setup1", "reference1", "setup2", "reference2", "verify2"};
    EXPECT_EQ(sent, expected);
    EXPECT_EQ(workers_started(), 2);
}

// The original kernel judges generated inputs: when it fails on them, the message blames the
// spec's generator (naming it and what it fills), not the kernel or a variant.
TEST_F(WorkerClientTest, AnOriginalFailingOnGeneratedInputsNamesTheGenerator) {
    setenv("FAKE_REFERENCE_FAILURE", "original kernel, trial 1: CUDA_ERROR_ILLEGAL_ADDRESS", 1);
    Problem generated;
    generated.generators.push_back({"/tmp/g.so", "make_csr.cpp", {"row_ptr", "col_idx"}});
    const auto why_start = [&](const Problem& problem) {
        RemoteSession session(OPTIML_FAKE_WORKER, 0, problem, candidate("ok"));
        try {
            session.start();
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("started");
    };
    const std::string with_generator = why_start(generated);
    const std::string without = why_start({});
    unsetenv("FAKE_REFERENCE_FAILURE");
    EXPECT_EQ(with_generator.rfind("the inputs the spec's generator made break the original "
                                   "kernel (make_csr.cpp (fills row_ptr, col_idx): original "
                                   "kernel, trial 1: CUDA_ERROR_ILLEGAL_ADDRESS); fix the "
                                   "generator",
                                   0),
              0u)
        << with_generator;
    EXPECT_EQ(without,
              "the original kernel failed: original kernel, trial 1: "
              "CUDA_ERROR_ILLEGAL_ADDRESS");
}

}  // namespace
}  // namespace optiml::measure
