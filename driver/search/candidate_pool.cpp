#include "driver/search/candidate_pool.h"

#include <algorithm>
#include <cmath>

namespace optiml::search {

CandidatePool::CandidatePool(const Space& space) : space_(space) {
    configs_ = space.enumerate_valid();
    coordinates_.reserve(configs_.size());
    for (std::size_t i = 0; i < configs_.size(); ++i) {
        std::vector<std::size_t> coordinates(space.names.size());
        for (std::size_t p = 0; p < space.names.size(); ++p) {
            const auto& values = space.values[p];
            const auto at = std::find(values.begin(), values.end(), configs_[i].at(space.names[p]));
            coordinates[p] = static_cast<std::size_t>(at - values.begin());
        }
        by_coordinates_.emplace(coordinates, i);
        coordinates_.push_back(std::move(coordinates));
    }
    taken_.assign(configs_.size(), false);
    costs_.assign(configs_.size(), std::nan(""));
}

std::vector<double> CandidatePool::features(std::size_t i) const {
    std::vector<double> out(coordinates_[i].size());
    for (std::size_t p = 0; p < out.size(); ++p) {
        const std::size_t levels = space_.values[p].size();
        out[p] = levels > 1
                     ? static_cast<double>(coordinates_[i][p]) / static_cast<double>(levels - 1)
                     : 0.0;
    }
    return out;
}

std::optional<std::size_t> CandidatePool::find(const Config& config) const {
    std::vector<std::size_t> coordinates(space_.names.size());
    for (std::size_t p = 0; p < space_.names.size(); ++p) {
        const auto value = config.find(space_.names[p]);
        if (value == config.end()) return std::nullopt;
        const auto& values = space_.values[p];
        const auto at = std::find(values.begin(), values.end(), value->second);
        if (at == values.end()) return std::nullopt;
        coordinates[p] = static_cast<std::size_t>(at - values.begin());
    }
    return find(coordinates);
}

std::optional<std::size_t> CandidatePool::find(const std::vector<std::size_t>& coordinates) const {
    const auto at = by_coordinates_.find(coordinates);
    if (at == by_coordinates_.end()) return std::nullopt;
    return at->second;
}

void CandidatePool::take(std::size_t i) {
    if (taken_[i]) return;
    taken_[i] = true;
    ++taken_count_;
}

std::vector<std::size_t> CandidatePool::untaken() const {
    std::vector<std::size_t> out;
    out.reserve(remaining());
    for (std::size_t i = 0; i < configs_.size(); ++i)
        if (!taken_[i]) out.push_back(i);
    return out;
}

std::optional<std::size_t> CandidatePool::random_untaken(std::mt19937_64& engine) const {
    if (remaining() == 0) return std::nullopt;
    // Rejection sampling while most of the space is left; a scan once it is mostly taken.
    if (remaining() * 4 >= configs_.size()) {
        std::uniform_int_distribution<std::size_t> pick(0, configs_.size() - 1);
        for (;;) {
            const std::size_t i = pick(engine);
            if (!taken_[i]) return i;
        }
    }
    const std::vector<std::size_t> left = untaken();
    std::uniform_int_distribution<std::size_t> pick(0, left.size() - 1);
    return left[pick(engine)];
}

std::vector<std::size_t> CandidatePool::neighbours(std::size_t i) const {
    std::vector<std::size_t> out;
    std::vector<std::size_t> coordinates = coordinates_[i];
    for (std::size_t p = 0; p < coordinates.size(); ++p) {
        const std::size_t own = coordinates[p];
        for (std::size_t v = 0; v < space_.values[p].size(); ++v) {
            if (v == own) continue;
            coordinates[p] = v;
            if (const auto neighbour = find(coordinates)) out.push_back(*neighbour);
        }
        coordinates[p] = own;
    }
    return out;
}

double CandidatePool::cost_of(const Outcome& outcome) {
    return outcome.ok ? outcome.median_ms : kFailedCost;
}

void CandidatePool::record(const Config& config, const Outcome& outcome) {
    if (const auto i = find(config)) {
        take(*i);
        costs_[*i] = cost_of(outcome);
    }
}

std::optional<std::size_t> CandidatePool::best() const {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < costs_.size(); ++i)
        if (std::isfinite(costs_[i]) && (!best || costs_[i] < costs_[*best])) best = i;
    return best;
}

}  // namespace optiml::search
