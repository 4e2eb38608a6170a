#include "driver/search/budget_fit.h"

#include <algorithm>
#include <cmath>

#include "driver/search/search.h"

namespace optiml::search {

namespace {
constexpr std::size_t kWholeSpaceUpTo = 256;
constexpr double kPerSquareRoot = 20.0;
constexpr int kFewest = 320;
constexpr int kMost = 1000;
}  // namespace

int fitted_evaluations(std::size_t valid) {
    if (valid <= kWholeSpaceUpTo) return static_cast<int>(std::max<std::size_t>(valid, 1));
    const double scaled = kPerSquareRoot * std::sqrt(static_cast<double>(valid));
    const int evaluations = std::clamp(static_cast<int>(std::lround(scaled)), kFewest, kMost);
    return static_cast<int>(std::min<std::size_t>(valid, static_cast<std::size_t>(evaluations)));
}

std::size_t patience_for(int evaluations) {
    const double share = kPatienceShare * static_cast<double>(std::max(evaluations, 0));
    return std::max(kMinPatience, static_cast<std::size_t>(std::lround(share)));
}

Budget fitted_budget(std::size_t valid) {
    Budget budget;
    budget.evaluations = fitted_evaluations(valid);
    budget.stop_when_converged = true;
    budget.patience = patience_for(budget.evaluations);
    return budget;
}

void Convergence::observe(bool ok, double median_ms) {
    ++evaluations_;
    if (!ok || !(median_ms > 0.0)) return;
    if (gain_best_ms_ == 0.0 || median_ms <= gain_best_ms_ * (1.0 - kMeaningfulGain)) {
        gain_best_ms_ = median_ms;
        last_gain_at_ = evaluations_;
    }
}

bool Convergence::converged() const {
    if (gain_best_ms_ == 0.0) return false;  // nothing has succeeded: keep looking
    const std::size_t without_gain = evaluations_ - last_gain_at_;
    return without_gain >= (primed_ ? patience_ : std::max(patience_, last_gain_at_));
}

std::string Convergence::text() const {
    return "no gain of " + std::to_string(static_cast<int>(kMeaningfulGain * 100)) + "% in the " +
           std::to_string(evaluations_ - last_gain_at_) + " evaluations since evaluation " +
           std::to_string(last_gain_at_);
}

}  // namespace optiml::search
