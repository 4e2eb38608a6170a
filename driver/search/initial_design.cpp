#include "driver/search/detail/initial_design.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "driver/search/detail/strategies.h"

namespace optiml::search {
namespace {

// The untaken, unchosen configuration nearest `target` (scaled value indices); ties at random.
std::optional<std::size_t> nearest_untaken(const CandidatePool& pool,
                                           const std::vector<bool>& chosen,
                                           const std::vector<double>& target,
                                           std::mt19937_64& engine) {
    std::optional<std::size_t> nearest;
    double nearest_distance = std::numeric_limits<double>::infinity();
    std::size_t ties = 0;
    for (std::size_t i = 0; i < pool.size(); ++i) {
        if (pool.taken(i) || chosen[i]) continue;
        const std::vector<double> x = pool.features(i);
        double distance = 0.0;
        for (std::size_t p = 0; p < x.size(); ++p)
            distance += (x[p] - target[p]) * (x[p] - target[p]);
        if (distance < nearest_distance - 1e-12) {
            nearest = i;
            nearest_distance = distance;
            ties = 1;
        } else if (distance <= nearest_distance + 1e-12 &&
                   std::uniform_int_distribution<std::size_t>(0, ties++)(engine) == 0) {
            nearest = i;  // reservoir sampling among the tied
        }
    }
    return nearest;
}

class Designed : public Strategy {
  public:
    Designed(CandidatePool& pool, std::unique_ptr<Strategy> opening,
             std::vector<std::size_t> design, std::unique_ptr<Strategy> then)
        : pool_(pool),
          opening_(std::move(opening)),
          design_(std::move(design)),
          then_(std::move(then)) {}

    std::string name() const override { return then_->name(); }

    std::vector<Config> propose(std::size_t n) override {
        std::vector<Config> out;
        while (out.size() < n && opened_ < kRandomOpening) {
            std::vector<Config> draw = opening_->propose(1);
            ++opened_;
            if (!draw.empty()) out.push_back(std::move(draw.front()));
        }
        while (out.size() < n && next_ < design_.size()) {
            const std::size_t i = design_[next_++];
            if (!pool_.taken(i)) take_into(pool_, i, out);
        }
        if (out.size() < n) {
            std::vector<Config> more = then_->propose(n - out.size());
            out.insert(out.end(), std::make_move_iterator(more.begin()),
                       std::make_move_iterator(more.end()));
        }
        return out;
    }

    void observe(const Config& config, const Outcome& outcome) override {
        then_->observe(config, outcome);
    }

  private:
    CandidatePool& pool_;
    std::unique_ptr<Strategy> opening_;
    std::size_t opened_ = 0;
    std::vector<std::size_t> design_;
    std::size_t next_ = 0;
    std::unique_ptr<Strategy> then_;
};

}  // namespace

std::vector<std::size_t> extremes_design(const CandidatePool& pool, std::mt19937_64& engine) {
    std::vector<std::size_t> design;
    std::vector<bool> chosen(pool.size(), false);
    auto choose = [&](std::size_t i) {
        design.push_back(i);
        chosen[i] = true;
    };
    const std::size_t dimensions = pool.space().names.size();
    if (const auto corner =
            nearest_untaken(pool, chosen, std::vector<double>(dimensions, 1.0), engine))
        choose(*corner);
    const auto original = pool.find(pool.space().defaults);
    if (!original) return design;
    std::vector<std::size_t> order(dimensions);
    for (std::size_t p = 0; p < dimensions; ++p) order[p] = p;
    std::shuffle(order.begin(), order.end(), engine);
    for (const std::size_t p : order) {
        std::vector<double> target = pool.features(*original);
        // A parameter of one value, or a default already at the largest, has nothing to show.
        if (pool.space().values[p].size() < 2 || target[p] >= 1.0) continue;
        target[p] = 1.0;
        // Where constraints rule the point out, the valid configuration nearest it.
        if (const auto i = nearest_untaken(pool, chosen, target, engine)) choose(*i);
    }
    return design;
}

std::unique_ptr<Strategy> make_designed(CandidatePool& pool, const StrategyOptions& options,
                                        std::unique_ptr<Strategy> then) {
    // An engine of its own, so the design does not shift the draws of `then` for a seed.
    std::mt19937_64 engine(options.seed ^ 0x9e3779b97f4a7c15ULL);
    std::vector<std::size_t> design = extremes_design(pool, engine);
    // random's own first draws for this seed (make_random's shuffle), so the opening is exactly
    // what random sampling would have measured.
    return std::make_unique<Designed>(pool, make_random(pool, options), std::move(design),
                                      std::move(then));
}

}  // namespace optiml::search
