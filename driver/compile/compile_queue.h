// Compiles on every core, each request an independent job, and hands results back one by one
// in the order they finish: the consumer (the GPU) starts on the first while the rest compile,
// instead of waiting for the slowest of a batch. With an ImageCache, a request compiled before
// (same inputs, same compiler) is served from it. An nvcc job is a process its thread waits for:
// nvcc jobs, too, run as many at once as there are threads.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "driver/compile/compile_request.h"
#include "driver/compile/image_cache.h"

namespace optiml::compile {

class CompileQueue {
  public:
    struct Done {
        std::size_t ticket = 0;  // what submit() returned
        CompileResult result;
        double compile_ms = 0.0;  // this job's own time (a cache hit: the lookup)
        bool cached = false;      // served by the image cache
    };

    // threads = 0: one per hardware thread. `cache` (may be null; safe to share between threads)
    // must outlive the queue; `headers_digest` stands for the local headers every request's source
    // includes.
    explicit CompileQueue(unsigned threads = 0, ImageCache* cache = nullptr,
                          std::string headers_digest = {});
    // Drops the jobs not started; waits for the running ones.
    ~CompileQueue();
    CompileQueue(const CompileQueue&) = delete;
    CompileQueue& operator=(const CompileQueue&) = delete;

    std::size_t submit(CompileRequest request);
    // Blocks until a job finishes; nullopt when none is queued, running or unclaimed.
    std::optional<Done> next();
    // Drops the jobs not started yet and returns their tickets; running ones still come out of
    // next().
    std::vector<std::size_t> cancel_pending();
    unsigned threads() const { return static_cast<unsigned>(workers_.size()); }

  private:
    void work(const std::stop_token& stop);
    Done run(std::size_t ticket, const CompileRequest& request) const;

    ImageCache* cache_;
    std::string headers_digest_;
    std::mutex mutex_;
    std::condition_variable_any changed_;
    std::deque<std::pair<std::size_t, CompileRequest>> pending_;
    std::deque<Done> done_;
    std::size_t running_ = 0;
    std::size_t next_ticket_ = 0;
    std::vector<std::jthread> workers_;  // last: joined before the state above goes
};

}  // namespace optiml::compile
