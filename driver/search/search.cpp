#include "driver/search/search.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "driver/search/budget_fit.h"
#include "driver/search/candidate_pool.h"
#include "driver/search/strategy.h"

namespace optiml::search {

std::vector<Config> Space::enumerate_valid() const {
    std::vector<Config> configs;
    if (names.empty()) {
        if (!is_valid || is_valid(defaults)) configs.push_back(defaults);
        return configs;
    }
    std::vector<std::size_t> index(names.size(), 0);
    for (;;) {
        Config config;
        for (std::size_t i = 0; i < names.size(); ++i) config[names[i]] = values[i][index[i]];
        if (!is_valid || is_valid(config)) configs.push_back(std::move(config));
        std::size_t digit = names.size();
        while (digit > 0) {
            --digit;
            if (++index[digit] < values[digit].size()) break;
            index[digit] = 0;
            if (digit == 0) return configs;
        }
    }
}

void Evaluator::submit(const Candidate&) {
    throw std::logic_error("this evaluator does not stream: call evaluate()");
}

std::optional<std::pair<Candidate, Outcome>> Evaluator::collect() {
    return std::nullopt;
}

namespace {

using Clock = std::chrono::steady_clock;

// What both loops share: the trace, the incumbent, the pool and the strategy told.
class SearchRun {
  public:
    SearchRun(const Space& space, const Budget& budget, std::uint64_t seed)
        : pool_(space),
          budget_(budget),
          convergence_(budget.patience, !budget.priors.empty()),
          start_(Clock::now()) {
        // The baseline is measured whatever the strategy; no strategy proposes it again.
        if (const auto default_index = pool_.find(space.defaults);
            default_index && budget.measure_baseline)
            pool_.take(*default_index);
        for (const Config& prior : budget.priors)
            if (const auto index = pool_.find(prior); index && !pool_.taken(*index)) {
                pool_.take(*index);
                priors_.push_back(prior);
            }
        strategy_ = make_strategy(budget.strategy, pool_, {seed, budget.evaluations});
        result_.space_size = pool_.size();
        result_.strategy = strategy_->name();
    }

    double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
    // Up to n proposals: the priors not yet proposed, then the strategy's.
    std::vector<Config> propose(std::size_t n) {
        std::vector<Config> proposals;
        while (next_prior_ < priors_.size() && proposals.size() < n)
            proposals.push_back(priors_[next_prior_++]);
        if (proposals.empty()) return strategy_->propose(n);
        return proposals;
    }
    const Result& result() const { return result_; }

    void record(const Candidate& candidate, const Outcome& outcome) {
        const std::size_t position = result_.trace.size();
        result_.trace.push_back({candidate, outcome, elapsed()});
        if (position == 0 && budget_.measure_baseline) result_.baseline = position;
        if (outcome.ok && (!result_.best ||
                           outcome.beats_incumbent.value_or(
                               outcome.median_ms < result_.trace[*result_.best].outcome.median_ms)))
            result_.best = position;
        pool_.record(candidate.parameters, outcome);
        strategy_->observe(candidate.parameters, outcome);
        result_.strategy = strategy_->name();
        convergence_.observe(outcome.ok, outcome.median_ms);
    }

    // Whether the search should stop proposing because it has converged.
    bool converged() const { return budget_.stop_when_converged && convergence_.converged(); }
    bool enough() const { return budget_.enough && budget_.enough(result_); }
    bool stopping() const { return converged() || enough(); }

    Result finish(bool stopped_by_time) {
        result_.stopped_by_time = stopped_by_time;
        result_.wall_s = elapsed();
        result_.stop_reason = stop_reason(stopped_by_time);
        return std::move(result_);
    }

  private:
    std::string stop_reason(bool stopped_by_time) const {
        if (stopped_by_time)
            return "the time budget of " + std::to_string(std::lround(budget_.seconds)) +
                   " s was spent";
        if (converged()) return "converged: " + convergence_.text();
        if (enough()) return "the caller had what it needed";
        if (result_.trace.size() >= static_cast<std::size_t>(std::max(0, budget_.evaluations)))
            return "the budget of " + std::to_string(budget_.evaluations) +
                   " evaluations was spent";
        return pool_.remaining() == 0 ? "every configuration was measured"
                                      : "the strategy had nothing left to try";
    }

    CandidatePool pool_;
    Budget budget_;
    std::vector<Config> priors_;  // valid, taken from the pool
    std::size_t next_prior_ = 0;
    std::unique_ptr<Strategy> strategy_;
    Result result_;
    Convergence convergence_;
    Clock::time_point start_;
};

Result run_batches(SearchRun& run, const Space& space, Evaluator& evaluator, const Budget& budget,
                   const Progress& progress, std::size_t batch_size) {
    const auto limit = static_cast<std::size_t>(std::max(0, budget.evaluations));
    while (run.result().trace.size() < limit) {
        const std::size_t done = run.result().trace.size();
        if (done > 0 && run.elapsed() >= budget.seconds) return run.finish(true);
        if (run.stopping()) break;
        // The baseline goes alone so its failure is known before anything else runs.
        const std::vector<Config> proposals = done == 0 && budget.measure_baseline
                                                  ? std::vector<Config>{space.defaults}
                                                  : run.propose(std::min(batch_size, limit - done));
        if (proposals.empty()) break;  // the strategy has nothing left to try
        std::vector<Candidate> batch;
        for (const Config& config : proposals) batch.emplace_back(config);
        std::vector<Outcome> outcomes = evaluator.evaluate(batch);
        for (std::size_t i = 0; i < batch.size(); ++i) run.record(batch[i], outcomes.at(i));
        if (progress) progress(run.result());
    }
    return run.finish(false);
}

// Keeps the evaluator's depth in flight, so that its compilers and its GPU both stay busy; each
// result is told to the strategy as it arrives, and the next proposal already knows it. The
// depth is reached by a slow start: at most one more in flight than results back (1, 2, 4, 8 ...
// as rounds of results return), so the strategy's first choices already know the earlier ones'
// results; on 16 cores the full depth comes after four or five rounds of compiles.
Result run_streaming(SearchRun& run, const Space& space, Evaluator& evaluator, const Budget& budget,
                     const Progress& progress) {
    const auto limit = static_cast<std::size_t>(std::max(0, budget.evaluations));
    if (limit == 0) return run.finish(false);
    // The first goes alone (the baseline, so that its failure is known before anything else runs).
    const std::vector<Config> first =
        budget.measure_baseline ? std::vector<Config>{space.defaults} : run.propose(1);
    if (first.empty()) return run.finish(false);
    evaluator.submit(Candidate{first.front()});
    std::size_t in_flight = 1;
    bool exhausted = false;
    bool stopped_by_time = false;
    while (in_flight > 0) {
        if (auto finished = evaluator.collect()) {
            --in_flight;
            run.record(finished->first, finished->second);
            if (progress) progress(run.result());
        } else {
            break;  // nothing came back: the evaluator lost what was in flight
        }
        if (!stopped_by_time && run.elapsed() >= budget.seconds) {
            stopped_by_time = true;
            in_flight -= evaluator.cancel_pending();
        }
        if (!stopped_by_time && run.stopping()) {
            // Converged (or the caller has what it needs): what is still in flight was proposed
            // before the search knew; timing it would cost the GPU and show no gain.
            in_flight -= evaluator.cancel_pending();
            while (in_flight > 0 && evaluator.discard()) --in_flight;
            break;
        }
        const std::size_t allowed =
            std::min(evaluator.streaming_depth(), run.result().trace.size() + 1);
        while (!stopped_by_time && !exhausted && in_flight < allowed &&
               run.result().trace.size() + in_flight < limit) {
            const std::vector<Config> proposals = run.propose(1);
            if (proposals.empty()) {
                // A strategy may wait for what is in flight (a local search for its
                // neighbourhood's results): it has nothing left only when nothing is.
                exhausted = in_flight == 0;
                break;
            }
            evaluator.submit(Candidate{proposals.front()});
            ++in_flight;
        }
    }
    return run.finish(stopped_by_time);
}

}  // namespace

Result run_search(const Space& space, Evaluator& evaluator, const Budget& budget,
                  const Progress& progress, std::uint64_t seed, std::size_t batch_size) {
    SearchRun run(space, budget, seed);
    return evaluator.streaming_depth() > 0
               ? run_streaming(run, space, evaluator, budget, progress)
               : run_batches(run, space, evaluator, budget, progress, batch_size);
}

std::string pipeline_text(std::size_t streaming_depth, std::size_t batch_size) {
    return streaming_depth > 0 ? "streaming, " + std::to_string(streaming_depth) + " in flight"
                               : "batches of " + std::to_string(batch_size);
}

std::string format_config(const Config& config) {
    std::ostringstream out;
    bool first = true;
    for (const auto& [name, value] : config) {
        out << (first ? "" : " ") << name << "=" << value;
        first = false;
    }
    return out.str();
}

std::string format_candidate(const Candidate& candidate) {
    std::string text = format_config(candidate.parameters);
    if (candidate.is_original_source() && candidate.options.empty()) return text;
    std::string extra;
    if (!candidate.is_original_source()) {
        extra = "source " + candidate.source_id.substr(0, 8);
        for (std::size_t i = 0; i < candidate.transformations.size(); ++i)
            extra += (i == 0 ? ": " : ", ") + candidate.transformations[i];
    }
    for (const std::string& option : candidate.options)
        extra += (extra.empty() ? "" : "; ") + option;
    if (!candidate.grid.empty()) {
        extra += std::string(extra.empty() ? "" : "; ") + "grid";
        for (std::size_t d = 0; d < candidate.grid.size(); ++d)
            extra += (d == 0 ? " " : ", ") + candidate.grid[d];
    }
    return text + " [" + extra + "]";
}

}  // namespace optiml::search
