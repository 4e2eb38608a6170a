#include "driver/search/strategy.h"

#include <stdexcept>

#include "driver/search/detail/strategies.h"

namespace optiml::search {
namespace {

using Factory = std::unique_ptr<Strategy> (*)(CandidatePool&, const StrategyOptions&);

struct Named {
    const char* name;
    Factory make;
};

constexpr Named kStrategies[] = {
    {"auto", make_auto},       {"exhaustive", make_exhaustive},
    {"random", make_random},   {"greedy_ils", make_greedy_ils},
    {"genetic", make_genetic}, {"bayes", make_bayes},
    {"mcts", make_mcts},
};

}  // namespace

std::unique_ptr<Strategy> make_strategy(const std::string& name, CandidatePool& pool,
                                        const StrategyOptions& options) {
    for (const Named& named : kStrategies)
        if (name == named.name) return named.make(pool, options);
    throw std::invalid_argument("unknown search strategy \"" + name + "\"; expected one of " +
                                strategy_names_text());
}

const std::vector<std::string>& strategy_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const Named& named : kStrategies) out.emplace_back(named.name);
        return out;
    }();
    return names;
}

std::string strategy_names_text() {
    std::string text;
    for (const std::string& name : strategy_names()) text += (text.empty() ? "" : ", ") + name;
    return text;
}

void take_into(CandidatePool& pool, std::size_t i, std::vector<Config>& out) {
    pool.take(i);
    out.push_back(pool.config(i));
}

}  // namespace optiml::search
