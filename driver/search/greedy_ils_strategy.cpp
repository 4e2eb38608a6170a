// Greedy iterated local search (Kernel Tuner's greedy_ils kind): climb from the current point to
// the first better neighbour (configurations one parameter away); at a local optimum, perturb
// the current point by a short random walk and climb again; after several perturbations without
// a new best, restart from a random configuration. Failed configurations cost +infinity, so the
// climb never moves onto one, and a start whose neighbourhood all fails gets perturbed away.
#include <algorithm>
#include <cmath>
#include <random>

#include "driver/search/detail/strategies.h"

namespace optiml::search {
namespace {

constexpr int kPerturbationSteps = 3;
constexpr int kPerturbationsBeforeRestart = 4;

class GreedyIls : public Strategy {
  public:
    GreedyIls(CandidatePool& pool, std::uint64_t seed) : pool_(pool), engine_(seed) {}
    std::string name() const override { return "greedy_ils"; }

    std::vector<Config> propose(std::size_t n) override {
        std::vector<Config> out;
        // Each pass either proposes something or moves the current point; the bound only guards
        // against a space whose untaken part cannot be reached by walks.
        for (int pass = 0; out.size() < n && pool_.remaining() > 0 && pass < 1000; ++pass) {
            if (!current_) {
                // Start from the best measured point (the default, usually), else at random.
                if (const auto best = pool_.best()) {
                    current_ = best;
                    refill_ = true;
                } else if (in_flight_ + out.size() > 0) {
                    break;
                } else {
                    restart(out);
                }
                continue;
            }
            if (refill_) {
                queue_ = pool_.neighbours(*current_);
                std::erase_if(queue_, [&](std::size_t i) { return pool_.taken(i); });
                std::shuffle(queue_.begin(), queue_.end(), engine_);
                refill_ = false;
            }
            if (!queue_.empty()) {
                const std::size_t next = queue_.back();
                queue_.pop_back();
                if (!pool_.taken(next)) take_into(pool_, next, out);
                continue;
            }
            if (in_flight_ + out.size() > 0) break;  // the neighbourhood's results may move us
            escape_local_optimum(out);
        }
        in_flight_ += out.size();
        return out;
    }

    void observe(const Config& config, const Outcome&) override {
        if (in_flight_ > 0) --in_flight_;
        const auto i = pool_.find(config);
        if (!i) return;
        const double cost = pool_.cost(*i);
        if (!current_ || cost < current_cost()) {
            current_ = *i;
            refill_ = true;
        }
        if (cost < best_cost_) {
            best_cost_ = cost;
            perturbations_ = 0;
        }
    }

  private:
    double current_cost() const {
        const double cost = pool_.cost(*current_);
        return std::isnan(cost) ? kFailedCost : cost;
    }

    void escape_local_optimum(std::vector<Config>& out) {
        if (++perturbations_ > kPerturbationsBeforeRestart) {
            perturbations_ = 0;
            restart(out);
            return;
        }
        std::size_t walker = *current_;
        for (int step = 0; step < kPerturbationSteps; ++step) {
            const std::vector<std::size_t> around = pool_.neighbours(walker);
            if (around.empty()) break;
            walker =
                around[std::uniform_int_distribution<std::size_t>(0, around.size() - 1)(engine_)];
        }
        if (walker == *current_) {
            restart(out);
            return;
        }
        // ILS accepts the perturbed point as the new start even if it is worse.
        current_ = walker;
        refill_ = true;
        if (!pool_.taken(walker)) take_into(pool_, walker, out);
    }

    void restart(std::vector<Config>& out) {
        const auto start = pool_.random_untaken(engine_);
        if (!start) return;
        current_ = *start;
        refill_ = true;
        take_into(pool_, *start, out);
    }

    CandidatePool& pool_;
    std::mt19937_64 engine_;
    std::optional<std::size_t> current_;
    std::vector<std::size_t> queue_;
    bool refill_ = true;
    std::size_t in_flight_ = 0;
    int perturbations_ = 0;
    double best_cost_ = kFailedCost;
};

}  // namespace

std::unique_ptr<Strategy> make_greedy_ils(CandidatePool& pool, const StrategyOptions& options) {
    return std::make_unique<GreedyIls>(pool, options.seed);
}

}  // namespace optiml::search
