// What a strategy knows about the space while it searches: every valid configuration (each with
// its value indices, for neighbours and models), which have been proposed already, and the cost
// measured for each. Strategies propose only from here, so none can propose an invalid
// configuration or one proposed before.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include "driver/search/search.h"

namespace optiml::search {

class CandidatePool {
  public:
    explicit CandidatePool(const Space& space);

    const Space& space() const { return space_; }
    std::size_t size() const { return configs_.size(); }
    const Config& config(std::size_t i) const { return configs_[i]; }
    // Per parameter, the index of this configuration's value in space().values.
    const std::vector<std::size_t>& coordinates(std::size_t i) const { return coordinates_[i]; }
    // Each coordinate scaled to [0, 1]: the features of model-based strategies.
    std::vector<double> features(std::size_t i) const;
    std::optional<std::size_t> find(const Config& config) const;
    std::optional<std::size_t> find(const std::vector<std::size_t>& coordinates) const;

    bool taken(std::size_t i) const { return taken_[i]; }
    void take(std::size_t i);
    std::size_t remaining() const { return configs_.size() - taken_count_; }
    std::vector<std::size_t> untaken() const;
    // A uniformly chosen configuration not yet taken; nullopt when none is left.
    std::optional<std::size_t> random_untaken(std::mt19937_64& engine) const;

    // Valid configurations that differ from i in exactly one parameter.
    std::vector<std::size_t> neighbours(std::size_t i) const;

    // Measured cost: the median in ms, +infinity for a failure, NaN while not measured.
    void record(const Config& config, const Outcome& outcome);
    double cost(std::size_t i) const { return costs_[i]; }
    static double cost_of(const Outcome& outcome);
    // The cheapest measured configuration, if any succeeded.
    std::optional<std::size_t> best() const;

  private:
    const Space& space_;
    std::vector<Config> configs_;
    std::vector<std::vector<std::size_t>> coordinates_;
    std::map<std::vector<std::size_t>, std::size_t> by_coordinates_;
    std::vector<bool> taken_;
    std::size_t taken_count_ = 0;
    std::vector<double> costs_;
};

constexpr double kFailedCost = std::numeric_limits<double>::infinity();

}  // namespace optiml::search
