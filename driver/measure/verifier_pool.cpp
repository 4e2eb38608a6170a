#include "driver/measure/verifier_pool.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

namespace optiml::measure {

VerifierPool::VerifierPool(RemoteSession& primary,
                           std::vector<std::unique_ptr<RemoteSession>> others)
    : others_(std::move(others)) {
    sessions_.push_back(&primary);
    for (const auto& session : others_) sessions_.push_back(session.get());
}

std::vector<std::string> VerifierPool::start() {
    // Each setup fills buffers on the host and runs the original: the GPUs do it side by side.
    std::vector<std::string> why(others_.size());
    {
        std::vector<std::jthread> threads;
        for (std::size_t k = 0; k < others_.size(); ++k)
            threads.emplace_back([&, k] {
                try {
                    others_[k]->start();
                } catch (const std::exception& e) {
                    why[k] = "device " + std::to_string(others_[k]->device()) + ": " + e.what();
                }
            });
    }
    std::vector<std::string> failures;
    std::vector<std::unique_ptr<RemoteSession>> started;
    for (std::size_t k = 0; k < others_.size(); ++k) {
        if (why[k].empty())
            started.push_back(std::move(others_[k]));
        else
            failures.push_back(why[k]);
    }
    others_ = std::move(started);
    sessions_.resize(1);
    for (const auto& session : others_) sessions_.push_back(session.get());
    return failures;
}

std::vector<int> VerifierPool::devices() const {
    std::vector<int> devices;
    for (const RemoteSession* session : sessions_) devices.push_back(session->device());
    return devices;
}

std::vector<int> VerifierPool::spread(
    std::size_t count, const std::function<void(RemoteSession&, std::size_t)>& work) {
    std::vector<int> ran_on(count, -1);
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stopped{false};
    std::exception_ptr first_error;
    std::mutex error_mutex;
    const auto drain = [&](RemoteSession& session) {
        while (!stopped) {
            const std::size_t i = next++;
            if (i >= count) break;
            try {
                work(session, i);
                ran_on[i] = session.device();
            } catch (...) {
                const std::lock_guard lock(error_mutex);
                if (!first_error) first_error = std::current_exception();
                stopped = true;
            }
        }
    };
    if (sessions_.size() == 1 || count <= 1) {
        drain(*sessions_.front());
    } else {
        std::vector<std::jthread> threads;
        for (RemoteSession* session : sessions_)
            threads.emplace_back([&drain, session] { drain(*session); });
    }
    if (first_error) std::rethrow_exception(first_error);
    return ran_on;
}

std::vector<VerifierPool::Verdict> VerifierPool::verify_all(const std::vector<LaunchSpec>& launches,
                                                            std::chrono::milliseconds timeout) {
    std::vector<Verdict> verdicts(launches.size());
    const std::vector<int> devices =
        spread(launches.size(), [&](RemoteSession& session, std::size_t i) {
            verdicts[i].measurement = session.verify(0, launches[i], timeout);
        });
    for (std::size_t i = 0; i < verdicts.size(); ++i) verdicts[i].device = devices[i];
    return verdicts;
}

}  // namespace optiml::measure
