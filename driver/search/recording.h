// A recorded space: every measured configuration of a kernel with its outcome, and the space
// they came from. ReplayEvaluator answers from it instead of a GPU, so any strategy runs on a
// CPU in seconds against real measurements (docs/replay.md).
#pragma once

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "driver/search/search.h"

namespace optiml::search {

// Where a recording's default configuration (space.defaults: the replay's baseline) comes from.
enum class BaselineSource {
    recording,       // the file names it
    first_recorded,  // the file names none: the first recorded configuration in enumeration order
    named,           // its reader's caller named it (optiml tune --replay --baseline)
};

struct Recording {
    std::string file;    // where it was read from (for messages)
    std::string format;  // optiml-recording, optiml-manifest, kernel-tuner-cache, t4-results
    std::string kernel;  // as the file names it, if it does
    std::string device;
    Space space;  // is_valid: recorded (a configuration the recording lacks is not a candidate)
    std::map<Config, Outcome> records;
    BaselineSource baseline_source = BaselineSource::recording;
    // Per parameter, the values the file wrote as other than integers (Kernel Tuner's strings and
    // floats), by their text, with the integer that stands for each: {"layout": {"row": 0}}.
    std::map<std::string, std::map<std::string, std::int64_t>> value_names;

    // The fastest successful median, if any succeeded.
    std::optional<double> optimum_ms() const;
    std::size_t successes() const;
    // Successful configurations within `ratio` of the optimum (1.02: within 2%).
    std::size_t within(double ratio) const;
};

// Makes space.is_valid accept exactly the recorded configurations.
void restrict_to_records(Recording& recording);

// Puts the parameters in canonical order: sorted by name, each one's values moving with it. Every
// recording is read so, and a strategy sees a space in its names' order: a seed gives the same
// run whatever order the file listed the parameters in.
void sort_parameters(Space& space);

// The recorded configuration `text` names ("block_size_x=32,layout=row"): every parameter of the
// recording once, each value an integer, true or false, or one of value_names by its text. Throws
// std::invalid_argument saying what is wrong and what was expected (for an option's error).
Config recorded_configuration(const Recording& recording, std::string_view text);

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
