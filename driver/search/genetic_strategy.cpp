// A genetic algorithm over value indices: the population is the best configurations measured so
// far (elitist); each child comes from two tournament-selected parents by uniform crossover,
// then each gene mutates with probability 1/parameters to a random value. A child that is
// invalid or already taken is redrawn; after many tries a random untaken configuration stands in,
// so the search keeps exploring when the population's region is used up.
#include <algorithm>
#include <cmath>
#include <random>

#include "driver/search/detail/strategies.h"

namespace optiml::search {
namespace {

constexpr std::size_t kPopulation = 16;
constexpr int kChildTries = 50;

class Genetic : public Strategy {
  public:
    Genetic(CandidatePool& pool, std::uint64_t seed) : pool_(pool), engine_(seed) {}
    std::string name() const override { return "genetic"; }

    std::vector<Config> propose(std::size_t n) override {
        std::vector<Config> out;
        const std::vector<std::size_t> parents = population();
        while (out.size() < n && pool_.remaining() > 0) {
            std::optional<std::size_t> child;
            if (parents.size() >= 2)
                for (int attempt = 0; attempt < kChildTries && !child; ++attempt)
                    child = breed(parents);
            if (!child) child = pool_.random_untaken(engine_);
            take_into(pool_, *child, out);
        }
        return out;
    }

    void observe(const Config& config, const Outcome&) override {
        if (const auto i = pool_.find(config); i && std::isfinite(pool_.cost(*i)))
            measured_.push_back(*i);
    }

  private:
    std::vector<std::size_t> population() {
        std::vector<std::size_t> best = measured_;
        const auto by_cost = [&](std::size_t a, std::size_t b) {
            return pool_.cost(a) < pool_.cost(b) || (pool_.cost(a) == pool_.cost(b) && a < b);
        };
        const std::size_t size = std::min(kPopulation, best.size());
        std::partial_sort(best.begin(), best.begin() + static_cast<std::ptrdiff_t>(size),
                          best.end(), by_cost);
        best.resize(size);
        return best;
    }

    std::size_t tournament(const std::vector<std::size_t>& parents) {
        std::uniform_int_distribution<std::size_t> pick(0, parents.size() - 1);
        const std::size_t a = parents[pick(engine_)];
        const std::size_t b = parents[pick(engine_)];
        return pool_.cost(a) <= pool_.cost(b) ? a : b;
    }

    std::optional<std::size_t> breed(const std::vector<std::size_t>& parents) {
        const auto& mother = pool_.coordinates(tournament(parents));
        const auto& father = pool_.coordinates(tournament(parents));
        const std::size_t genes = mother.size();
        std::bernoulli_distribution coin(0.5);
        std::bernoulli_distribution mutate(genes > 0 ? 1.0 / static_cast<double>(genes) : 0.0);
        std::vector<std::size_t> child(genes);
        for (std::size_t g = 0; g < genes; ++g) {
            child[g] = coin(engine_) ? mother[g] : father[g];
            if (mutate(engine_)) {
                const std::size_t levels = pool_.space().values[g].size();
                child[g] = std::uniform_int_distribution<std::size_t>(0, levels - 1)(engine_);
            }
        }
        const auto found = pool_.find(child);
        if (found && !pool_.taken(*found)) return found;
        return std::nullopt;
    }

    CandidatePool& pool_;
    std::mt19937_64 engine_;
    std::vector<std::size_t> measured_;  // pool entries that succeeded
};

}  // namespace

std::unique_ptr<Strategy> make_genetic(CandidatePool& pool, const StrategyOptions& options) {
    return std::make_unique<Genetic>(pool, options.seed);
}

}  // namespace optiml::search
