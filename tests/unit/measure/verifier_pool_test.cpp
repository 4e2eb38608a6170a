// Verification spread over several workers (one per GPU), against scripted workers
// (fake_worker.sh) that remember their device: verdicts come back in input order, every worker
// takes part, and a worker that dies fails only its candidate and is replaced, as on one GPU.
#include "driver/measure/verifier_pool.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

namespace optiml::measure {
namespace {
namespace fs = std::filesystem;
using namespace std::chrono_literals;

class VerifierPoolTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("optiml-pool-test-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_ / "barrier");
        // Workers read these when they start; the barrier's "peers" file is read at each verify.
        setenv("FAKE_WORKER_LOG", (dir_ / "workers.log").c_str(), 1);
        setenv("FAKE_VERIFY_LOG", (dir_ / "verified.log").c_str(), 1);
        setenv("FAKE_VERIFY_BARRIER", (dir_ / "barrier").c_str(), 1);
    }
    void TearDown() override {
        for (const char* name : {"FAKE_WORKER_LOG", "FAKE_VERIFY_LOG", "FAKE_VERIFY_BARRIER"})
            unsetenv(name);
        fs::remove_all(dir_);
    }
    // From now on each worker's verify waits until `peers` workers have each started one.
    void require_every_worker(int peers) {
        fs::remove_all(dir_ / "barrier" / "arrived");
        std::ofstream(dir_ / "barrier" / "peers") << peers << "\n";
    }
    static LaunchSpec candidate(const std::string& behaviour, int number) {
        LaunchSpec launch;
        launch.symbol = behaviour;
        launch.image_path = "/scratch/candidate-" + std::to_string(number) + ".cubin";
        return launch;
    }
    static std::vector<LaunchSpec> candidates(int count) {
        std::vector<LaunchSpec> launches;
        for (int i = 0; i < count; ++i) launches.push_back(candidate("ok", i));
        return launches;
    }
    std::unique_ptr<RemoteSession> session(int device,
                                           const fs::path& worker = OPTIML_FAKE_WORKER) const {
        return std::make_unique<RemoteSession>(worker, device, Problem{}, candidate("ok", -1));
    }
    // Which device each image was verified on, from the workers' own log.
    std::map<std::string, int> verified_by_workers() const {
        std::ifstream in(dir_ / "verified.log");
        std::map<std::string, int> found;
        int device = -1;
        for (std::string image; in >> device >> image;) found[image] = device;
        return found;
    }
    int lines(const fs::path& file) const {
        std::ifstream in(file);
        int count = 0;
        for (std::string line; std::getline(in, line);) ++count;
        return count;
    }
    fs::path dir_;
};

TEST_F(VerifierPoolTest, VerdictsComeBackInInputOrderAndEveryGpuVerifiesSome) {
    auto primary = session(0);
    primary->start();
    std::vector<std::unique_ptr<RemoteSession>> others;
    others.push_back(session(1));
    VerifierPool pool(*primary, std::move(others));
    EXPECT_TRUE(pool.start().empty());
    EXPECT_EQ(pool.devices(), (std::vector<int>{0, 1}));
    require_every_worker(2);

    const std::vector<LaunchSpec> launches = candidates(8);
    const auto verdicts = pool.verify_all(launches, 20s);
    ASSERT_EQ(verdicts.size(), launches.size());
    std::map<int, int> per_device;
    const auto by_workers = verified_by_workers();
    for (std::size_t i = 0; i < verdicts.size(); ++i) {
        const Measurement& m = verdicts[i].measurement;
        EXPECT_TRUE(m.ok) << m.message;
        // The worker names the image it verified and its device: the verdict in slot i is
        // candidate i's, and the device recorded is the one that ran it.
        EXPECT_EQ(m.message,
                  launches[i].image_path + " on device " + std::to_string(verdicts[i].device));
        EXPECT_EQ(by_workers.at(launches[i].image_path), verdicts[i].device);
        ++per_device[verdicts[i].device];
    }
    EXPECT_EQ(by_workers.size(), launches.size()) << "each candidate verified exactly once";
    EXPECT_GT(per_device[0], 0);
    EXPECT_GT(per_device[1], 0);
    EXPECT_EQ(per_device[0] + per_device[1], 8);
}

TEST_F(VerifierPoolTest, ACrashFailsThatCandidateOnlyAndItsWorkerIsReplaced) {
    auto primary = session(0);
    primary->start();
    std::vector<std::unique_ptr<RemoteSession>> others;
    others.push_back(session(1));
    VerifierPool pool(*primary, std::move(others));
    ASSERT_TRUE(pool.start().empty());

    std::vector<LaunchSpec> launches = candidates(6);
    launches[2] = candidate("crash", 2);
    const auto verdicts = pool.verify_all(launches, 20s);
    for (std::size_t i = 0; i < verdicts.size(); ++i) {
        const Measurement& m = verdicts[i].measurement;
        if (i == 2) {
            // What one GPU reports for a candidate that kills its worker (worker_client_test).
            EXPECT_FALSE(m.ok);
            EXPECT_EQ(m.status, "worker_died");
            EXPECT_NE(m.message.find("status 9"), std::string::npos) << m.message;
        } else {
            EXPECT_TRUE(m.ok) << i << ": " << m.message;
        }
    }
    EXPECT_EQ(verified_by_workers().size(), 5u);

    // Both GPUs verify again: the one whose worker died has a fresh one, set up from scratch.
    require_every_worker(2);
    for (const auto& verdict : pool.verify_all(candidates(4), 20s))
        EXPECT_TRUE(verdict.measurement.ok) << verdict.measurement.message;
    EXPECT_EQ(lines(dir_ / "workers.log"), 3);
}

TEST_F(VerifierPoolTest, AGpuWhoseWorkerCannotStartIsLeftOut) {
    auto primary = session(0);
    primary->start();
    std::vector<std::unique_ptr<RemoteSession>> others;
    others.push_back(session(1, "/nonexistent/optiml-worker"));
    others.push_back(session(2));
    VerifierPool pool(*primary, std::move(others));
    const auto failures = pool.start();
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_EQ(failures[0].rfind("device 1: worker setup failed", 0), 0u) << failures[0];
    EXPECT_EQ(pool.devices(), (std::vector<int>{0, 2}));
    for (const auto& verdict : pool.verify_all(candidates(4), 20s)) {
        EXPECT_TRUE(verdict.measurement.ok) << verdict.measurement.message;
        EXPECT_NE(verdict.device, 1);
    }
}

TEST_F(VerifierPoolTest, AnExceptionInTheWorkReachesTheCaller) {
    auto primary = session(0);
    primary->start();
    std::vector<std::unique_ptr<RemoteSession>> others;
    others.push_back(session(1));
    VerifierPool pool(*primary, std::move(others));
    ASSERT_TRUE(pool.start().empty());
    EXPECT_THROW(pool.spread(4,
                             [](RemoteSession&, std::size_t i) {
                                 if (i == 1) throw std::runtime_error("cannot write the image");
                             }),
                 std::runtime_error);
}

TEST_F(VerifierPoolTest, ThePrimaryAloneVerifiesEverything) {
    auto primary = session(3);
    primary->start();
    VerifierPool pool(*primary, {});
    EXPECT_TRUE(pool.start().empty());
    const auto verdicts = pool.verify_all(candidates(3), 20s);
    ASSERT_EQ(verdicts.size(), 3u);
    for (const auto& verdict : verdicts) {
        EXPECT_TRUE(verdict.measurement.ok);
        EXPECT_EQ(verdict.device, 3);
    }
}

}  // namespace
}  // namespace optiml::measure
