#include "driver/search/search.h"

#include <algorithm>
#include <random>
#include <sstream>

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

namespace {

// The default first, then the rest: all of them, or a seeded random sample that fits the budget.
std::vector<Config> plan(const Space& space, const Budget& budget, std::uint64_t seed,
                         Result& result) {
    std::vector<Config> valid = space.enumerate_valid();
    result.space_size = valid.size();
    std::erase(valid, space.defaults);
    const auto limit = static_cast<std::size_t>(std::max(0, budget.evaluations - 1));
    result.strategy = valid.size() <= limit ? "exhaustive" : "random";
    if (valid.size() > limit) {
        std::mt19937_64 engine(seed);
        std::shuffle(valid.begin(), valid.end(), engine);
        valid.resize(limit);
    }
    valid.insert(valid.begin(), space.defaults);
    return valid;
}

}  // namespace

Result run_search(const Space& space, Evaluator& evaluator, const Budget& budget,
                  const Progress& progress, std::uint64_t seed, std::size_t batch_size) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };

    Result result;
    const std::vector<Config> order = plan(space, budget, seed, result);
    for (std::size_t next = 0; next < order.size();) {
        if (next > 0 && elapsed() >= budget.seconds) {
            result.stopped_by_time = true;
            break;
        }
        // The baseline goes alone so its failure is known before anything else runs.
        const std::size_t size = next == 0 ? 1 : std::min(batch_size, order.size() - next);
        std::vector<Config> batch(order.begin() + static_cast<std::ptrdiff_t>(next),
                                  order.begin() + static_cast<std::ptrdiff_t>(next + size));
        std::vector<Outcome> outcomes = evaluator.evaluate(batch);
        for (std::size_t i = 0; i < batch.size(); ++i) {
            const std::size_t position = result.trace.size();
            result.trace.push_back({batch[i], outcomes.at(i), elapsed()});
            const Outcome& outcome = result.trace.back().outcome;
            if (next + i == 0) result.baseline = position;
            if (outcome.ok && (!result.best || outcome.beats_incumbent.value_or(
                                                   outcome.median_ms <
                                                   result.trace[*result.best].outcome.median_ms)))
                result.best = position;
        }
        next += size;
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
