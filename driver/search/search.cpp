#include "driver/search/search.h"

#include <algorithm>
#include <sstream>

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

Result run_search(const Space& space, Evaluator& evaluator, const Budget& budget,
                  const Progress& progress, std::uint64_t seed, std::size_t batch_size) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };

    CandidatePool pool(space);
    // The baseline is measured whatever the strategy; no strategy proposes it again.
    if (const auto default_index = pool.find(space.defaults)) pool.take(*default_index);
    const std::unique_ptr<Strategy> strategy =
        make_strategy(budget.strategy, pool, {seed, budget.evaluations});

    Result result;
    result.space_size = pool.size();
    result.strategy = strategy->name();
    const auto limit = static_cast<std::size_t>(std::max(0, budget.evaluations));
    while (result.trace.size() < limit) {
        if (!result.trace.empty() && elapsed() >= budget.seconds) {
            result.stopped_by_time = true;
            break;
        }
        // The baseline goes alone so its failure is known before anything else runs.
        std::vector<Config> batch =
            result.trace.empty()
                ? std::vector<Config>{space.defaults}
                : strategy->propose(std::min(batch_size, limit - result.trace.size()));
        if (batch.empty()) break;  // the strategy has nothing left to try
        std::vector<Outcome> outcomes = evaluator.evaluate(batch);
        for (std::size_t i = 0; i < batch.size(); ++i) {
            const std::size_t position = result.trace.size();
            result.trace.push_back({batch[i], outcomes.at(i), elapsed()});
            const Outcome& outcome = result.trace.back().outcome;
            if (position == 0) result.baseline = position;
            if (outcome.ok && (!result.best || outcome.beats_incumbent.value_or(
                                                   outcome.median_ms <
                                                   result.trace[*result.best].outcome.median_ms)))
                result.best = position;
            pool.record(batch[i], outcome);
            strategy->observe(batch[i], outcome);
        }
        result.strategy = strategy->name();
        if (progress) progress(result);
    }
    result.wall_s = elapsed();
    return result;
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

}  // namespace optiml::search
