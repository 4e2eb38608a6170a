#include "driver/search/reward.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace optiml::search {
namespace {

std::optional<double> metric(const Metrics& metrics, const std::string& name) {
    const auto found = metrics.find(name);
    if (found == metrics.end()) return std::nullopt;
    return found->second;
}

// Spill traffic: "spill_bytes" when a profiler sums it, else store + load as the compiler reports.
std::optional<double> spill_bytes(const Metrics& metrics) {
    if (const auto total = metric(metrics, "spill_bytes")) return total;
    const auto store = metric(metrics, "spill_store_bytes");
    const auto load = metric(metrics, "spill_load_bytes");
    if (!store && !load) return std::nullopt;
    return store.value_or(0.0) + load.value_or(0.0);
}

// ln(parent / node) of a count that should go down; nothing when either is not positive.
double log_drop(const Metrics& parent, const Metrics& node, const std::string& name) {
    const auto before = metric(parent, name);
    const auto after = metric(node, name);
    if (!before || !after || *before <= 0.0 || *after <= 0.0) return 0.0;
    return std::log(*before / *after);
}

double occupancy_gain(const Metrics& parent, const Metrics& node) {
    const auto before = metric(parent, "achieved_occupancy_pct");
    const auto after = metric(node, "achieved_occupancy_pct");
    if (!before || !after) return 0.0;
    return (*after - *before) / 100.0;
}

double proxy_move(const Metrics& parent, const Metrics& node, const std::string& bottleneck) {
    if (bottleneck == "memory") return log_drop(parent, node, "dram_bytes");
    if (bottleneck == "compute") return log_drop(parent, node, "instructions_executed");
    if (bottleneck == "latency") return occupancy_gain(parent, node);
    return 0.0;
}

// Growth of a metric against the parent, zero when it shrank or either side is missing.
double growth(std::optional<double> before, std::optional<double> after) {
    if (!before || !after) return 0.0;
    return std::max(0.0, *after - *before);
}

double guardrails(const Metrics& parent, const Metrics& node, const RewardWeights& w) {
    const double registers =
        growth(metric(parent, "registers_per_thread"), metric(node, "registers_per_thread"));
    const double spills = growth(spill_bytes(parent), spill_bytes(node));
    const double occupancy_lost = std::max(0.0, -occupancy_gain(parent, node));
    return -(w.register_growth * registers + w.spill * std::log1p(spills) +
             w.occupancy_loss * occupancy_lost);
}

}  // namespace

RewardTerms reward_terms(double original_ms, double node_ms, const Metrics& parent,
                         const Metrics& node, const std::string& bottleneck, double judge_score,
                         const RewardWeights& w) {
    RewardTerms terms;
    if (original_ms > 0.0 && node_ms > 0.0)
        terms.speedup = w.speedup * std::log(original_ms / node_ms);
    terms.proxy = w.proxy * proxy_move(parent, node, bottleneck);
    terms.penalty = guardrails(parent, node, w);
    terms.judge = w.judge * judge_score;
    terms.total = terms.speedup + terms.proxy + terms.penalty + terms.judge;
    return terms;
}

double composite_reward(double original_ms, double node_ms, const Metrics& parent,
                        const Metrics& node, const std::string& bottleneck, double judge_score,
                        const RewardWeights& w) {
    return reward_terms(original_ms, node_ms, parent, node, bottleneck, judge_score, w).total;
}

RewardTerms rejected_terms(const RewardWeights& w) {
    RewardTerms terms;
    terms.penalty = w.rejected;
    terms.total = w.rejected;
    return terms;
}

}  // namespace optiml::search
