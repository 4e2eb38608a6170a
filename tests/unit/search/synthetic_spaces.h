// Synthetic objective functions for testing strategies: made-up formulas, not measurements.
#pragma once

#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <set>
#include <vector>

#include "driver/search/search.h"

namespace optiml::search::testing {

// A space of `parameters` parameters with values 0..levels-1 each; default all zeros.
inline Space grid_space(std::size_t parameters, std::int64_t levels) {
    Space space;
    for (std::size_t p = 0; p < parameters; ++p) {
        space.names.push_back("p" + std::to_string(p));
        std::vector<std::int64_t> values;
        for (std::int64_t v = 0; v < levels; ++v) values.push_back(v);
        space.values.push_back(values);
        space.defaults[space.names.back()] = 0;
    }
    return space;
}

// Evaluates a synthetic cost function (nullopt: the configuration fails) and records every
// configuration it is asked for.
class SyntheticEvaluator : public Evaluator {
  public:
    using Cost = std::function<std::optional<double>(const Config&)>;
    explicit SyntheticEvaluator(Cost cost) : cost_(std::move(cost)) {}
    std::vector<Outcome> evaluate(const std::vector<Candidate>& batch) override {
        std::vector<Outcome> outcomes;
        for (const Candidate& candidate : batch) {
            const Config& config = candidate.parameters;
            seen.push_back(config);
            Outcome outcome;
            if (const auto ms = cost_(config)) {
                outcome.ok = true;
                outcome.status = "ok";
                outcome.median_ms = outcome.min_ms = outcome.max_ms = *ms;
            } else {
                outcome.status = "synthetic_failure";
            }
            outcomes.push_back(outcome);
        }
        return outcomes;
    }
    std::vector<Config> seen;

  private:
    Cost cost_;
};

// The same, streaming: up to `depth` in flight, answered in the order submitted (a pipeline
// whose evaluations all take the same time).
class StreamingSyntheticEvaluator : public SyntheticEvaluator {
  public:
    StreamingSyntheticEvaluator(Cost cost, std::size_t depth)
        : SyntheticEvaluator(std::move(cost)), depth_(depth) {}
    std::size_t streaming_depth() const override { return depth_; }
    void submit(const Candidate& candidate) override { queue_.push_back(candidate); }
    std::optional<std::pair<Candidate, Outcome>> collect() override {
        if (queue_.empty()) return std::nullopt;
        const Candidate candidate = queue_.front();
        queue_.pop_front();
        return std::pair{candidate, evaluate({candidate}).front()};
    }
    // Dropped unmeasured: counted, never evaluated.
    bool discard() override {
        if (queue_.empty()) return false;
        queue_.pop_front();
        ++discarded;
        return true;
    }
    std::size_t discarded = 0;

  private:
    std::size_t depth_;
    std::deque<Candidate> queue_;
};

// A smooth bowl with one narrow optimum at `centre` (cost 1.0; every other point >= 1.5).
inline SyntheticEvaluator::Cost synthetic_bowl(std::vector<std::int64_t> centre) {
    return [centre](const Config& config) -> std::optional<double> {
        double squared = 0.0;
        std::size_t p = 0;
        for (const auto& [name, value] : config) {
            const double d = static_cast<double>(value - centre[p++]);
            squared += d * d;
        }
        return squared == 0.0 ? 1.0 : 1.5 + squared;
    };
}

}  // namespace optiml::search::testing
