// A synthetic world for the transformation tree: a kernel whose time is a function of the
// candidate's transformations and parameters, proposers of fixed, wide and failing edges, a judge
// whose priors go by transformation name, and a profiler whose metrics follow the time.
#pragma once

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "driver/search/tree_search.h"

namespace optiml::search::fakes {

inline bool has(const Candidate& c, const std::string& step) {
    return std::find(c.transformations.begin(), c.transformations.end(), step) !=
           c.transformations.end();
}

// Whether `first` comes before `second` in the candidate's chain.
inline bool before(const Candidate& c, const std::string& first, const std::string& second) {
    const auto a = std::find(c.transformations.begin(), c.transformations.end(), first);
    const auto b = std::find(c.transformations.begin(), c.transformations.end(), second);
    return a != c.transformations.end() && b != c.transformations.end() && a < b;
}

// 10 ms originally. "tile" alone costs 2 ms, but "unroll" after it saves 6 and "vector" after
// both 3 more: only depth pays. "decoy" saves 0.5 ms at once and leads nowhere (with "tile" it
// costs 3 ms). "unroll" and
// "vector" out of that order cost 1 ms each. Parameter "w" adds a small deterministic amount.
inline double synthetic_ms(const Candidate& c) {
    double ms = 10.0;
    if (has(c, "tile")) ms += 2.0;
    const bool unrolled = before(c, "tile", "unroll");
    if (unrolled)
        ms -= 6.0;
    else if (has(c, "unroll"))
        ms += 1.0;
    if (unrolled && before(c, "unroll", "vector"))
        ms -= 3.0;
    else if (has(c, "vector"))
        ms += 1.0;
    if (has(c, "decoy")) ms += has(c, "tile") ? 3.0 : -0.5;
    if (const auto w = c.parameters.find("w"); w != c.parameters.end())
        ms += 0.01 * static_cast<double>(w->second % 7);
    return ms;
}

inline Outcome synthetic_outcome(const Candidate& c) {
    Outcome o;
    if (has(c, "broken")) {
        o.status = "compile_error";
        o.message = "planted";
        return o;
    }
    o.ok = true;
    o.status = "ok";
    o.median_ms = o.min_ms = o.max_ms = synthetic_ms(c);
    o.runs = 10;
    return o;
}

inline Candidate original() {
    return Candidate{Config{{"w", 0}}};
}

inline Candidate with_step(const Candidate& parent, const std::string& step) {
    Candidate child = parent;
    child.transformations.push_back(step);
    child.source_id.clear();
    for (const std::string& s : child.transformations) child.source_id += s + "+";
    return child;
}

class BatchEvaluator : public Evaluator {
  public:
    std::vector<Outcome> evaluate(const std::vector<Candidate>& batch) override {
        std::vector<Outcome> outcomes;
        for (const Candidate& c : batch) {
            seen.push_back(c);
            std::this_thread::sleep_for(delay);
            outcomes.push_back(synthetic_outcome(c));
        }
        batches.push_back(batch.size());
        return outcomes;
    }
    std::vector<Candidate> seen;
    std::vector<std::size_t> batches;
    std::chrono::milliseconds delay{0};
};

// Finishes last-submitted first, as a streaming pipeline may.
class StreamingEvaluator : public BatchEvaluator {
  public:
    explicit StreamingEvaluator(std::size_t depth) : depth_(depth) {}
    std::size_t streaming_depth() const override { return depth_; }
    void submit(const Candidate& c) override {
        in_flight.push_back(c);
        ++submitted;
        max_in_flight = std::max(max_in_flight, in_flight.size());
    }
    std::optional<std::pair<Candidate, Outcome>> collect() override {
        if (in_flight.empty()) return std::nullopt;
        const Candidate c = in_flight.back();
        in_flight.pop_back();
        return std::pair{c, evaluate({c}).front()};
    }
    std::size_t cancel_pending() override {
        const std::size_t dropped = in_flight.size();
        cancelled += dropped;
        in_flight.clear();
        return dropped;
    }
    std::vector<Candidate> in_flight;
    std::size_t submitted = 0;
    std::size_t max_in_flight = 0;
    std::size_t cancelled = 0;

  private:
    std::size_t depth_;
};

// Appends each of its steps not yet in the chain.
class StepProposer : public Proposer {
  public:
    StepProposer(std::string name, std::vector<std::string> steps)
        : name_(std::move(name)), steps_(std::move(steps)) {}
    std::string name() const override { return name_; }
    std::vector<Proposal> propose(const NodeInfo& node) override {
        infos.push_back(*node.candidate);
        std::vector<Proposal> proposals;
        for (const std::string& step : steps_) {
            if (has(*node.candidate, step)) continue;
            Proposal p;
            p.candidate = with_step(*node.candidate, step);
            p.kind = "rewrite";
            p.proposer = name_;
            p.transformation = step;
            p.rationale = "because " + step;
            p.evidence = {"roofline"};
            p.expected = {{"dram_bytes", -1}};
            proposals.push_back(std::move(p));
        }
        return proposals;
    }
    std::vector<Candidate> infos;  // the node each call was for

  private:
    std::string name_;
    std::vector<std::string> steps_;
};

// 50 parameter moves at every node, each a new value of "w" unique to its path.
class WideProposer : public Proposer {
  public:
    std::string name() const override { return "wide"; }
    std::vector<Proposal> propose(const NodeInfo& node) override {
        std::vector<Proposal> proposals;
        const std::int64_t w = node.candidate->parameters.at("w");
        for (std::int64_t i = 1; i <= 50; ++i) {
            Proposal p;
            p.candidate = *node.candidate;
            p.candidate.parameters["w"] = w * 51 + i;
            p.kind = "parameter";
            p.proposer = "wide";
            p.transformation = "w=" + std::to_string(p.candidate.parameters["w"]);
            proposals.push_back(std::move(p));
        }
        return proposals;
    }
};

// Priors by transformation name (0.5 when unnamed); "w=..." moves by w's last digit / 10.
class NameJudge : public Judge {
  public:
    explicit NameJudge(std::map<std::string, double> priors = {}) : priors_(std::move(priors)) {}
    std::string name() const override { return "names"; }
    double score(const NodeInfo&, const Proposal& p) override {
        if (const auto found = priors_.find(p.transformation); found != priors_.end())
            return found->second;
        if (p.kind == "parameter")
            return static_cast<double>(p.candidate.parameters.at("w") % 10) / 10.0;
        return 0.5;
    }
    Consistency check(const NodeInfo& parent, const Proposal& p, const Metrics& child) override {
        ++checks;
        Consistency c;
        for (const Effect& e : p.expected) {
            const auto before = parent.metrics->find(e.metric);
            const auto after = child.find(e.metric);
            if (before == parent.metrics->end() || after == child.end()) {
                ++c.unmeasured;
            } else if ((after->second - before->second) * e.direction > 0) {
                ++c.held;
            } else {
                ++c.contradicted;
            }
        }
        return c;
    }
    int checks = 0;

  private:
    std::map<std::string, double> priors_;
};

// Memory-bound, DRAM traffic in proportion to the time.
struct CountingProfiler {
    std::vector<Candidate> profiled;
    NodeProfiler function() {
        return [this](const Candidate& c, const Outcome&) -> std::optional<NodeProfile> {
            profiled.push_back(c);
            return NodeProfile{
                {{"dram_bytes", synthetic_ms(c) * 1e6}, {"registers_per_thread", 32.0}}, "memory"};
        };
    }
};

inline TreeStart start_at_original() {
    TreeStart start;
    start.root = original();
    start.root_outcome = synthetic_outcome(start.root);
    start.original_ms = start.root_outcome.median_ms;
    return start;
}

}  // namespace optiml::search::fakes
