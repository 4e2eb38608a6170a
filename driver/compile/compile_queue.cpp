#include "driver/compile/compile_queue.h"

#include <algorithm>
#include <chrono>

#include "driver/base/elapsed.h"

namespace optiml::compile {

CompileQueue::CompileQueue(unsigned threads, ImageCache* cache, std::string headers_digest)
    : cache_(cache), headers_digest_(std::move(headers_digest)) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned t = 0; t < threads; ++t)
        workers_.emplace_back([this](const std::stop_token& stop) { work(stop); });
}

CompileQueue::~CompileQueue() {
    cancel_pending();
    for (auto& worker : workers_) worker.request_stop();
    changed_.notify_all();
    workers_.clear();  // joins
}

std::size_t CompileQueue::submit(CompileRequest request) {
    std::size_t ticket = 0;
    {
        const std::lock_guard lock(mutex_);
        ticket = next_ticket_++;
        pending_.emplace_back(ticket, std::move(request));
    }
    changed_.notify_all();
    return ticket;
}

std::optional<CompileQueue::Done> CompileQueue::next() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !done_.empty() || (pending_.empty() && running_ == 0); });
    if (done_.empty()) return std::nullopt;
    Done done = std::move(done_.front());
    done_.pop_front();
    return done;
}

std::vector<std::size_t> CompileQueue::cancel_pending() {
    std::vector<std::size_t> tickets;
    {
        const std::lock_guard lock(mutex_);
        for (const auto& job : pending_) tickets.push_back(job.first);
        pending_.clear();
    }
    changed_.notify_all();
    return tickets;
}

void CompileQueue::work(const std::stop_token& stop) {
    std::unique_lock lock(mutex_);
    for (;;) {
        if (!changed_.wait(lock, stop, [&] { return !pending_.empty(); })) return;
        auto [ticket, request] = std::move(pending_.front());
        pending_.pop_front();
        ++running_;
        lock.unlock();
        Done done = run(ticket, request);
        lock.lock();
        --running_;
        done_.push_back(std::move(done));
        changed_.notify_all();
    }
}

CompileQueue::Done CompileQueue::run(std::size_t ticket, const CompileRequest& request) const {
    const auto start = std::chrono::steady_clock::now();
    Done done;
    done.ticket = ticket;
    done.result =
        cache_ ? cache_->find_or_compile(image_key(request, headers_digest_), request, &done.cached)
               : compile(request);
    done.compile_ms = base::since_ms(start);
    return done;
}

}  // namespace optiml::compile
