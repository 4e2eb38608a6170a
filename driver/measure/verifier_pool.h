// Several GPUs of one model on one host. Verification is the expensive part of evaluating a
// candidate (several poisoned runs on fresh inputs, compared on the host) and its verdict does
// not depend on which of identical GPUs ran it, so it is spread over one worker per GPU, in
// parallel. Timing stays on the primary GPU (CandidateEvaluator): every timing comparison runs on
// one device in one order, and the decisions are those of one GPU.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "driver/measure/protocol.h"
#include "driver/measure/worker_client.h"

namespace optiml::measure {

class VerifierPool {
  public:
    // `primary`: the session the evaluator times on, started by the caller; it verifies too (it
    // is idle meanwhile). `others`: one session per further GPU, each holding the same problems
    // (same seeds, same original, the same extra sizes in the same order), not yet started.
    VerifierPool(RemoteSession& primary, std::vector<std::unique_ptr<RemoteSession>> others);

    // Starts the other sessions, in parallel. One that cannot start is left out of the pool;
    // the reason for each ("device 1: worker setup failed: ...") is returned.
    std::vector<std::string> start();

    // The devices taking part, the primary's first.
    std::vector<int> devices() const;
    std::size_t size() const { return sessions_.size(); }

    // Calls work(session, i) for every i < count, each on the next free session (one thread per
    // session); returns the device that ran each i, in input order. A worker that dies is
    // replaced by its session as on one GPU. The first exception `work` throws is rethrown once
    // every thread has finished (no new item starts after it).
    std::vector<int> spread(std::size_t count,
                            const std::function<void(RemoteSession&, std::size_t)>& work);

    struct Verdict {
        Measurement measurement;
        int device = -1;  // which GPU verified it
    };
    // Every correctness check of each launch at the main problem size, in input order.
    std::vector<Verdict> verify_all(const std::vector<LaunchSpec>& launches,
                                    std::chrono::milliseconds timeout);

  private:
    std::vector<RemoteSession*> sessions_;  // the primary first
    std::vector<std::unique_ptr<RemoteSession>> others_;
};

}  // namespace optiml::measure
