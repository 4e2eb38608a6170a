// Bayesian optimization: a Gaussian process over the parameters' scaled value indices models
// log(time) of the configurations that ran; each batch takes the candidates of highest expected
// improvement times their probability of running, each pick damping the score of candidates near
// it so a batch spreads out. A failure has no time: a second process, over every measurement's
// outcome (1 ran, 0 failed), gives that probability, so the search steers away from failing
// regions without the failures bending the time model near the successes beside them (issue 28:
// modelled as a time 2.7x the slowest success, a failure next to the optimum raised the optimum's
// predicted time). The first few picks are random, to give the model something to fit. The local
// kind (auto's second member) scores only the untaken neighbours of the best configuration, a
// local search in the model's order: it models from two measurements on, since its picks stay
// near data.
#include <algorithm>
#include <cmath>
#include <random>

#include "driver/search/detail/gaussian_process.h"
#include "driver/search/detail/strategies.h"

namespace optiml::search {
namespace {

constexpr std::size_t kCandidatesScored = 2000;  // a random subset of larger spaces
// In scaled index units ([0, 1] per parameter). 0.7 beat 0.2, 0.3, 0.5 and 1.0 on the six recorded
// H200 spaces, alone and beside greedy_ils (bench/search_efficiency, 20 seeds): the spaces' times
// vary smoothly over several steps of each parameter.
constexpr double kLengthScale = 0.7;
constexpr double kNoise = 1e-4;
constexpr double kSpreadRadius = 0.15;
// The model fits the best half of this many measurements and the most recent others: an exact
// GP costs n^3, and far-from-best points matter little to where the optimum is.
constexpr std::size_t kMaxModelPoints = 160;

double distance(const std::vector<double>& a, const std::vector<double>& b) {
    double squared = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) squared += (a[i] - b[i]) * (a[i] - b[i]);
    return std::sqrt(squared);
}

class Bayes : public Strategy {
  public:
    Bayes(CandidatePool& pool, std::uint64_t seed, bool local)
        : pool_(pool),
          engine_(seed),
          initial_(local ? 2 : std::max<std::size_t>(6, pool.space().names.size() + 2)),
          local_(local) {}
    std::string name() const override { return local_ ? "local_bayes" : "bayes"; }

    std::vector<Config> propose(std::size_t n) override {
        std::vector<Config> out;
        if (observed_.size() < initial_ || !fit()) {
            while (out.size() < n)
                if (const auto i = pool_.random_untaken(engine_))
                    take_into(pool_, *i, out);
                else
                    break;
            return out;
        }
        std::vector<std::size_t> candidates = candidate_set();
        std::vector<double> score(candidates.size());
        for (std::size_t c = 0; c < candidates.size(); ++c) {
            const std::vector<double> at = pool_.features(candidates[c]);
            const auto p = model_.predict(at);
            // Ties (EI underflows to 0 far from data) fall back to the lower predicted mean.
            score[c] = expected_improvement(p.mean, p.stddev, best_) * runs_probability(at) -
                       1e-12 * p.mean;
        }
        while (out.size() < n && !candidates.empty()) {
            const auto top = static_cast<std::size_t>(std::max_element(score.begin(), score.end()) -
                                                      score.begin());
            const std::size_t chosen = candidates[top];
            take_into(pool_, chosen, out);
            const std::vector<double> at = pool_.features(chosen);
            candidates.erase(candidates.begin() + static_cast<std::ptrdiff_t>(top));
            score.erase(score.begin() + static_cast<std::ptrdiff_t>(top));
            for (std::size_t c = 0; c < candidates.size(); ++c) {
                const double d = distance(at, pool_.features(candidates[c]));
                if (d < kSpreadRadius) score[c] -= std::abs(score[c]) * (1.0 - d / kSpreadRadius);
            }
        }
        return out;
    }

    void observe(const Config& config, const Outcome&) override {
        if (const auto i = pool_.find(config)) observed_.push_back(*i);
    }

  private:
    // False when nothing has succeeded yet (nothing to model).
    bool fit() {
        best_ = INFINITY;
        for (const std::size_t i : observed_)
            if (std::isfinite(pool_.cost(i))) best_ = std::min(best_, std::log(pool_.cost(i)));
        if (!std::isfinite(best_)) return false;
        const std::vector<std::size_t> points = model_points();
        std::vector<std::vector<double>> x, outcome_x;
        std::vector<double> y, outcome_y;
        for (const std::size_t i : points) {
            const bool ran = std::isfinite(pool_.cost(i));
            outcome_x.push_back(pool_.features(i));
            outcome_y.push_back(ran ? 1.0 : 0.0);
            if (!ran) continue;
            x.push_back(outcome_x.back());
            y.push_back(std::log(pool_.cost(i)));
        }
        model_.fit(std::move(x), y);
        any_failed_ = std::find(outcome_y.begin(), outcome_y.end(), 0.0) != outcome_y.end();
        if (any_failed_) runs_.fit(std::move(outcome_x), outcome_y);
        return true;
    }

    // The chance that a configuration at `at` runs: the outcome model's mean, within [0, 1]; far
    // from every measurement, the fraction that ran. 1 until something has failed.
    double runs_probability(const std::vector<double>& at) const {
        if (!any_failed_) return 1.0;
        return std::clamp(runs_.predict(at).mean, 0.0, 1.0);
    }

    std::vector<std::size_t> model_points() const {
        if (observed_.size() <= kMaxModelPoints) return observed_;
        std::vector<std::size_t> by_cost = observed_;
        std::stable_sort(by_cost.begin(), by_cost.end(), [&](std::size_t a, std::size_t b) {
            return pool_.cost(a) < pool_.cost(b);
        });
        std::vector<std::size_t> points(by_cost.begin(), by_cost.begin() + kMaxModelPoints / 2);
        for (auto at = observed_.rbegin(); points.size() < kMaxModelPoints; ++at)
            if (std::find(points.begin(), points.end(), *at) == points.end()) points.push_back(*at);
        return points;
    }

    // Local: the untaken neighbours of the best, if any. Otherwise every untaken configuration of
    // a small space; in a large one a random subset plus the untaken neighbours of the best,
    // where improvement is most likely.
    std::vector<std::size_t> candidate_set() {
        if (local_)
            if (const auto best = pool_.best()) {
                std::vector<std::size_t> near = pool_.neighbours(*best);
                std::erase_if(near, [&](std::size_t i) { return pool_.taken(i); });
                if (!near.empty()) return near;
            }
        std::vector<std::size_t> left = pool_.untaken();
        if (left.size() <= kCandidatesScored) return left;
        std::shuffle(left.begin(), left.end(), engine_);
        left.resize(kCandidatesScored);
        if (const auto best = pool_.best())
            for (const std::size_t i : pool_.neighbours(*best))
                if (!pool_.taken(i)) left.push_back(i);
        std::sort(left.begin(), left.end());
        left.erase(std::unique(left.begin(), left.end()), left.end());
        return left;
    }

    CandidatePool& pool_;
    std::mt19937_64 engine_;
    std::size_t initial_;
    bool local_;
    std::vector<std::size_t> observed_;
    GaussianProcess model_{kLengthScale, kNoise};  // log(time) of what ran
    GaussianProcess runs_{kLengthScale, kNoise};   // 1 ran, 0 failed
    bool any_failed_ = false;
    double best_ = INFINITY;
};

}  // namespace

std::unique_ptr<Strategy> make_bayes(CandidatePool& pool, const StrategyOptions& options) {
    return std::make_unique<Bayes>(pool, options.seed, false);
}

std::unique_ptr<Strategy> make_local_bayes(CandidatePool& pool, const StrategyOptions& options) {
    return std::make_unique<Bayes>(pool, options.seed, true);
}

}  // namespace optiml::search
