#include "driver/propose/rule_judge.h"

#include <algorithm>
#include <cmath>

namespace optiml::propose {
namespace {

// The scores, in one place (docs/transformations.md, "The rule judge").
constexpr double kBase = 0.35;              // any proposal whose precondition held
constexpr double kParameterMove = 0.40;     // a neighbour in the declared space
constexpr double kAnswersDiagnosis = 0.30;  // expects to move the bottleneck's metric
constexpr double kCitesStall = 0.15;        // answers a dominant stall from PC sampling
constexpr double kDominantStall = 0.10;     // ... the largest one, stall-1
// A structural rewrite of the statement a cited stall is on removes the stall's cause: it
// answers the diagnosis whatever the bottleneck, and ranks above an unroll of the loop around it.
constexpr double kRestructuresStall = 0.15;
constexpr double kAlreadyFine = 0.20;  // taken off when the metric is already where wanted
constexpr double kHighOccupancyPct = 80.0;
constexpr double kLearnedRange = 0.30;   // at most this much up or down from what was seen
constexpr double kPerLogSpeedup = 10.0;  // 3% faster where tried before: +0.3
constexpr double kFailedBefore = 0.30;   // failed verification (or compile) where tried

}  // namespace

bool answers_bottleneck(const search::Effect& e, const std::string& bottleneck) {
    if (bottleneck == "memory")
        return e.direction < 0 && (e.metric == "dram_bytes" || e.metric == "l2_sectors" ||
                                   e.metric == "l1tex_sectors");
    if (bottleneck == "compute") return e.direction < 0 && e.metric == "instructions_executed";
    // Latency: more warps to hide it, or fewer instructions on each warp's dependent chain.
    if (bottleneck == "latency")
        return (e.direction > 0 && e.metric == "achieved_occupancy_pct") ||
               (e.direction < 0 &&
                (e.metric == "registers_per_thread" || e.metric == "instructions_executed"));
    return false;
}

double RuleJudge::score(const search::NodeInfo& parent, const search::Proposal& proposal) {
    double learned = 0.0;
    if (const auto found = seen_.find(proposal.transformation); found != seen_.end()) {
        const Seen& seen = found->second;
        if (seen.measured > 0)
            learned = std::clamp(kPerLogSpeedup * seen.log_speedup_sum / seen.measured,
                                 -kLearnedRange, kLearnedRange);
        if (seen.failed > 0) learned -= kFailedBefore;
    }
    if (proposal.kind == "parameter") return std::clamp(kParameterMove + learned, 0.0, 1.0);
    double score = kBase + learned;
    const bool cites_stall =
        std::any_of(proposal.evidence.begin(), proposal.evidence.end(),
                    [](const std::string& id) { return id.rfind("stall-", 0) == 0; });
    const bool restructures_stall = proposal.structural && cites_stall;
    if (restructures_stall || std::any_of(proposal.expected.begin(), proposal.expected.end(),
                                          [&](const search::Effect& e) {
                                              return answers_bottleneck(e, parent.bottleneck);
                                          }))
        score += kAnswersDiagnosis;
    if (cites_stall) score += kCitesStall;
    if (std::find(proposal.evidence.begin(), proposal.evidence.end(), "stall-1") !=
        proposal.evidence.end())
        score += kDominantStall;
    if (restructures_stall) score += kRestructuresStall;
    // More warps cannot help a kernel that already keeps most warp slots busy.
    if (parent.metrics) {
        const auto occupancy = parent.metrics->find("achieved_occupancy_pct");
        const bool wants_occupancy = std::any_of(
            proposal.expected.begin(), proposal.expected.end(), [](const search::Effect& e) {
                return e.metric == "achieved_occupancy_pct" && e.direction > 0;
            });
        if (wants_occupancy && occupancy != parent.metrics->end() &&
            occupancy->second >= kHighOccupancyPct)
            score -= kAlreadyFine;
    }
    return std::clamp(score, 0.0, 1.0);
}

void RuleJudge::learn(const search::NodeInfo& parent, const search::Proposal& proposal,
                      const search::Outcome& child) {
    Seen& seen = seen_[proposal.transformation];
    if (!child.ok) {
        ++seen.failed;
        return;
    }
    if (!parent.outcome || !parent.outcome->ok || parent.outcome->median_ms <= 0.0 ||
        child.median_ms <= 0.0)
        return;
    ++seen.measured;
    seen.log_speedup_sum += std::log(parent.outcome->median_ms / child.median_ms);
}

search::Consistency RuleJudge::check(const search::NodeInfo& parent,
                                     const search::Proposal& proposal,
                                     const search::Metrics& child) {
    search::Consistency result;
    for (const search::Effect& effect : proposal.expected) {
        const auto before = parent.metrics ? parent.metrics->find(effect.metric)
                                           : search::Metrics::const_iterator{};
        const auto after = child.find(effect.metric);
        if (!parent.metrics || before == parent.metrics->end() || after == child.end()) {
            ++result.unmeasured;
            continue;
        }
        const double scale = std::max(std::abs(before->second), 1e-12);
        const double move = effect.direction * (after->second - before->second) / scale;
        if (move > kNoise)
            ++result.held;
        else if (move < -kNoise)
            ++result.contradicted;
    }
    return result;
}

}  // namespace optiml::propose
