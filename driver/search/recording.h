// A recorded space: every measured configuration of a kernel with its outcome, and the space
// they came from. ReplayEvaluator answers from it instead of a GPU, so any strategy runs on a
// CPU in seconds against real measurements (docs/replay.md).
#pragma once

#include <deque>
#include <map>
#include <optional>
#include <string>

#include "driver/search/search.h"

namespace optiml::search {

struct Recording {
    std::string file;    // where it was read from (for messages)
    std::string format;  // optiml-recording, optiml-manifest, kernel-tuner-cache, t4-results
    std::string kernel;  // as the file names it, if it does
    std::string device;
    Space space;  // is_valid: recorded (a configuration the recording lacks is not a candidate)
    std::map<Config, Outcome> records;

    // The fastest successful median, if any succeeded.
    std::optional<double> optimum_ms() const;
    std::size_t successes() const;
    // Successful configurations within `ratio` of the optimum (1.02: within 2%).
    std::size_t within(double ratio) const;
};

// Makes space.is_valid accept exactly the recorded configurations.
void restrict_to_records(Recording& recording);

class ReplayEvaluator : public Evaluator {
  public:
    // in_flight 0: answers batches (evaluate). Otherwise it streams as tune's pipeline does
    // (CandidateEvaluator::streaming_depth), with that many candidates in flight, each answered
    // in the order it was submitted (as if every evaluation took the same time).
    explicit ReplayEvaluator(const Recording& recording, std::size_t in_flight = 0)
        : recording_(recording), in_flight_(in_flight) {}
    // The recorded outcome; a configuration the recording lacks fails as "not_recorded", and so
    // does any candidate of a derived source or with options (recordings hold the original's).
    std::vector<Outcome> evaluate(const std::vector<Candidate>& batch) override;

    std::size_t streaming_depth() const override { return in_flight_; }
    void submit(const Candidate& candidate) override;
    std::optional<std::pair<Candidate, Outcome>> collect() override;

  private:
    Outcome answer(const Candidate& candidate) const;

    const Recording& recording_;
    std::size_t in_flight_;
    std::deque<Candidate> submitted_;
};

// The 1-based number of evaluations after which the best successful median found is at most
// `target_ms`; nullopt if the search never got there.
std::optional<std::size_t> evaluations_until(const Result& result, double target_ms);
// The best successful median among the first `evaluations` of the trace (+infinity if none).
double best_after(const Result& result, std::size_t evaluations);

}  // namespace optiml::search
