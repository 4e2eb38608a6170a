#include "driver/search/tree_search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <stdexcept>
#include <tuple>

namespace optiml::search {
namespace {

using Clock = std::chrono::steady_clock;

struct Scored {
    Proposal proposal;
    double prior = 0.0;
};

// What the search keeps per node beside what it reports (TreeNode).
struct NodeStats {
    double reward_sum = 0.0;       // rewards backed up through here
    double in_flight_below = 0.0;  // evaluations in flight in this subtree: the virtual visits
    bool gathered = false;         // proposals asked for once
    std::vector<Scored> pending;   // not yet admitted, best prior first
    std::size_t next_pending = 0;
    std::vector<std::size_t> children;  // arrived
    std::size_t admitted = 0;           // children arrived or in flight
    bool exhausted = false;             // nothing left to propose anywhere below
    double tiebreak = 0.0;
};

// A child submitted for evaluation: a node once its outcome arrives.
struct Admitted {
    std::size_t parent = 0;
    Scored edge;
};

// What a candidate compiles and runs as: two chains of rewrites that reach the same text (restrict
// then unroll, unroll then restrict) are one variant, measured once.
Candidate identity(Candidate candidate) {
    candidate.transformations.clear();
    return candidate;
}

// A variant whose image is one measured before (the evaluator's same_image_as: the same CUBIN and
// launch) brings nothing but its edge: what would grow from it grows from the variant it repeats,
// so it is neither expanded nor profiled. On an H100 (bench/results/h100-2026-12-08-end-to-end.md)
// 60-76% of the tree's evaluations on the three large spaces were such repeats, 85-95% of them
// below an earlier repeat: parameter moves from a no-op option's node land on configurations the
// parameter search had measured without it.
bool repeats_an_image(const TreeNode& node) {
    return node.outcome.details.same_image_as.has_value();
}

class TreeRun {
  public:
    TreeRun(const TreeStart& start, const std::vector<Proposer*>& proposers, Judge& judge,
            const NodeProfiler& profile, const TreeOptions& options)
        : start_(start),
          proposers_(proposers),
          judge_(judge),
          profile_(profile),
          options_(options),
          rng_(options.seed),
          began_(Clock::now()) {
        for (const Candidate& measured : start.measured) known_.insert(identity(measured));
        known_.insert(identity(start.root));
        TreeNode root;
        root.proposal.candidate = start.root;
        root.outcome = start.root_outcome;
        root.rejected = !root.outcome.ok;
        add_node(std::move(root));
        if (!result_.nodes[0].rejected) profile_node(0);
        TreeNode& node = result_.nodes[0];
        node.reward = node.rejected ? rejected_terms(options_.weights)
                                    : reward_terms(start.original_ms, node.outcome.median_ms, {},
                                                   node.metrics, "", 0.0, options_.weights);
        node.visits = 1.0;
        stats_[0].reward_sum = node.reward.total;
        result_.winning_path = {0};
    }

    double elapsed() const { return std::chrono::duration<double>(Clock::now() - began_).count(); }
    const TreeResult& result() const { return result_; }
    std::size_t evaluations() const { return result_.trace.size(); }

    // The next candidate to evaluate; nullopt when every open path waits on an evaluation in
    // flight, or nothing is left to propose (exhausted()).
    std::optional<Candidate> select() { return descend(0); }
    bool exhausted() const { return stats_[0].exhausted; }

    void arrive(const Candidate& candidate, const Outcome& outcome) {
        const auto found = in_flight_.find(candidate);
        if (found == in_flight_.end())
            throw std::logic_error("the evaluator returned a candidate the tree did not submit: " +
                                   format_candidate(candidate));
        Admitted admitted = std::move(found->second);
        in_flight_.erase(found);
        result_.trace.push_back({candidate, outcome, elapsed()});
        for (std::optional<std::size_t> at = admitted.parent; at; at = result_.nodes[*at].parent)
            stats_[*at].in_flight_below -= 1.0;

        TreeNode child;
        child.parent = admitted.parent;
        child.proposal = std::move(admitted.edge.proposal);
        child.judge_score = admitted.edge.prior;
        child.outcome = outcome;
        child.rejected = !outcome.ok;
        judge_.learn(info(admitted.parent), child.proposal, outcome);
        const std::size_t id = add_node(std::move(child));
        stats_[admitted.parent].children.push_back(id);
        if (result_.nodes[id].rejected) {
            result_.nodes[id].reward = rejected_terms(options_.weights);
        } else {
            if (!repeats_an_image(result_.nodes[id])) profile_node(id);
            score(id);
            update_best(id);
        }
        back_up(id, result_.nodes[id].reward.total);
    }

    TreeResult finish(bool stopped_by_time) {
        profile_winning_path();
        result_.stopped_by_time = stopped_by_time;
        result_.wall_s = elapsed();
        return std::move(result_);
    }

  private:
    std::size_t add_node(TreeNode node) {
        node.id = result_.nodes.size();
        result_.nodes.push_back(std::move(node));
        NodeStats stats;
        stats.tiebreak = std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
        stats_.push_back(std::move(stats));
        return result_.nodes.back().id;
    }

    // Built afresh for each call: it points into nodes, which grow.
    NodeInfo info(std::size_t id) const {
        const TreeNode& node = result_.nodes[id];
        return {&node.proposal.candidate, &node.outcome, &node.metrics, node.bottleneck};
    }

    void profile_node(std::size_t id) {
        if (!profile_ || profiles_used_ >= options_.max_profiles) return;
        ++profiles_used_;
        take_profile(id);
    }

    // Profiles node `id` whatever the limit; whether it got metrics.
    bool take_profile(std::size_t id) {
        auto profiled = profile_(result_.nodes[id].candidate(), result_.nodes[id].outcome);
        if (!profiled) return false;
        result_.nodes[id].metrics = std::move(profiled->metrics);
        result_.nodes[id].bottleneck = std::move(profiled->bottleneck);
        return true;
    }

    // The winning path is what `optiml explain` gives as the cause of the gain: each of its nodes
    // is profiled, beyond max_profiles where the search had spent them, and each step's expected
    // metrics are checked again against its parent, so that a rationale the measurements
    // contradict shows as such. The rewards that guided the search stay as they were.
    void profile_winning_path() {
        if (!profile_) return;
        const std::vector<std::size_t>& path = result_.winning_path;
        std::vector<bool> profiled_now(path.size(), false);
        for (std::size_t step = 0; step < path.size(); ++step) {
            const TreeNode& node = result_.nodes[path[step]];
            if (node.rejected || !node.metrics.empty()) continue;
            profiled_now[step] = take_profile(path[step]);
        }
        for (std::size_t step = 1; step < path.size(); ++step) {
            if (!profiled_now[step] && !profiled_now[step - 1]) continue;
            TreeNode& node = result_.nodes[path[step]];
            node.consistency = judge_.check(info(path[step - 1]), node.proposal, node.metrics);
        }
    }

    // The judge's check against the parent, then the reward in the parent's diagnosed direction.
    void score(std::size_t id) {
        const std::size_t parent = *result_.nodes[id].parent;
        TreeNode& node = result_.nodes[id];
        node.consistency = judge_.check(info(parent), node.proposal, node.metrics);
        const TreeNode& from = result_.nodes[parent];
        node.reward =
            reward_terms(start_.original_ms, node.outcome.median_ms, from.metrics, node.metrics,
                         from.bottleneck, node.judge_score, options_.weights);
    }

    // As run_search decides (the evaluator's verdict where it gives one), and by min_gain.
    void update_best(std::size_t id) {
        const Outcome& outcome = result_.nodes[id].outcome;
        const TreeNode& best = result_.nodes[result_.best];
        const bool faster = outcome.median_ms < best.outcome.median_ms * (1.0 - options_.min_gain);
        if (best.rejected || (outcome.beats_incumbent.value_or(true) && faster)) {
            result_.best = id;
            result_.winning_path.clear();
            for (std::optional<std::size_t> at = id; at; at = result_.nodes[*at].parent)
                result_.winning_path.push_back(*at);
            std::reverse(result_.winning_path.begin(), result_.winning_path.end());
        }
    }

    void back_up(std::size_t id, double reward) {
        for (std::optional<std::size_t> at = id; at; at = result_.nodes[*at].parent) {
            result_.nodes[*at].visits += 1.0;
            stats_[*at].reward_sum += reward;
        }
    }

    // Asks every proposer once, has the judge score each edge, and drops repeats of candidates
    // already measured, in the tree, or offered twice.
    void gather(std::size_t id) {
        NodeStats& stats = stats_[id];
        stats.gathered = true;
        std::set<Candidate> offered;
        std::vector<Scored> scored;
        for (Proposer* proposer : proposers_) {
            for (Proposal& proposal : proposer->propose(info(id))) {
                if (known_.contains(identity(proposal.candidate)) ||
                    !offered.insert(identity(proposal.candidate)).second)
                    continue;
                const double prior = judge_.score(info(id), proposal);
                scored.push_back({std::move(proposal), prior});
            }
        }
        std::stable_sort(scored.begin(), scored.end(),
                         [](const Scored& a, const Scored& b) { return a.prior > b.prior; });
        stats_[id].pending = std::move(scored);
    }

    // Skips proposals another node has had admitted meanwhile; true when one is left.
    bool has_pending(std::size_t id) {
        NodeStats& stats = stats_[id];
        while (stats.next_pending < stats.pending.size() &&
               known_.contains(identity(stats.pending[stats.next_pending].proposal.candidate)))
            ++stats.next_pending;
        return stats.next_pending < stats.pending.size();
    }

    double widening_limit(std::size_t id) const {
        const double visits = result_.nodes[id].visits + stats_[id].in_flight_below;
        return std::ceil(options_.widening_k * std::pow(visits, options_.widening_alpha));
    }

    // Mean reward, counting each evaluation in flight below as a rejection (virtual loss, so
    // that parallel selections spread), plus the prior's bonus.
    double puct(std::size_t parent, std::size_t child) const {
        const double pending = stats_[child].in_flight_below;
        const double visits = result_.nodes[child].visits + pending;
        const double mean =
            (stats_[child].reward_sum + pending * options_.weights.rejected) / visits;
        const double parent_visits = result_.nodes[parent].visits + stats_[parent].in_flight_below;
        return mean + options_.exploration * result_.nodes[child].judge_score *
                          std::sqrt(parent_visits) / (1.0 + visits);
    }

    Candidate admit(std::size_t id) {
        NodeStats& stats = stats_[id];
        // The judge may have learnt since the proposals were gathered: the rest are ranked anew
        // (those another node had admitted meanwhile dropped first).
        auto rest = stats.pending.begin() + static_cast<std::ptrdiff_t>(stats.next_pending);
        stats.pending.erase(
            std::remove_if(
                rest, stats.pending.end(),
                [&](const Scored& s) { return known_.contains(identity(s.proposal.candidate)); }),
            stats.pending.end());
        rest = stats.pending.begin() + static_cast<std::ptrdiff_t>(stats.next_pending);
        for (auto it = rest; it != stats.pending.end(); ++it)
            it->prior = judge_.score(info(id), it->proposal);
        std::stable_sort(rest, stats.pending.end(),
                         [](const Scored& a, const Scored& b) { return a.prior > b.prior; });
        Scored edge = std::move(stats.pending[stats.next_pending++]);
        ++stats.admitted;
        for (std::optional<std::size_t> at = id; at; at = result_.nodes[*at].parent)
            stats_[*at].in_flight_below += 1.0;
        Candidate candidate = edge.proposal.candidate;
        known_.insert(identity(candidate));
        in_flight_.emplace(candidate, Admitted{id, std::move(edge)});
        return candidate;
    }

    // Rejected, a repeated image, or nothing left below: never descended into again.
    bool dead_end(std::size_t id) const {
        return result_.nodes[id].rejected || repeats_an_image(result_.nodes[id]) ||
               stats_[id].exhausted;
    }

    std::optional<Candidate> descend(std::size_t id) {
        if (dead_end(id)) return std::nullopt;
        if (!stats_[id].gathered) gather(id);
        const bool pending = has_pending(id);
        if (pending && static_cast<double>(stats_[id].admitted) < widening_limit(id))
            return admit(id);
        std::vector<std::tuple<double, double, std::size_t>> open;  // score, tie-break, child
        for (std::size_t child : stats_[id].children)
            if (!dead_end(child)) open.emplace_back(puct(id, child), stats_[child].tiebreak, child);
        std::sort(open.begin(), open.end(), std::greater<>());
        // The best child first; one whose subtree waits on evaluations in flight yields to the
        // next.
        for (const auto& [score, tiebreak, child] : open)
            if (auto chosen = descend(child)) return chosen;
        const bool waiting = stats_[id].in_flight_below > 0.0;
        // Every child is a dead end: widen beyond the limit rather than stop here.
        if (pending && !waiting) return admit(id);
        if (!pending && !waiting &&
            std::all_of(stats_[id].children.begin(), stats_[id].children.end(),
                        [&](std::size_t c) { return dead_end(c); }))
            stats_[id].exhausted = true;
        return std::nullopt;
    }

    const TreeStart& start_;
    const std::vector<Proposer*>& proposers_;
    Judge& judge_;
    const NodeProfiler& profile_;
    const TreeOptions& options_;
    std::mt19937_64 rng_;
    Clock::time_point began_;
    TreeResult result_;
    std::vector<NodeStats> stats_;
    std::set<Candidate> known_;  // identities measured, in the tree, or in flight
    std::map<Candidate, Admitted> in_flight_;
    std::size_t profiles_used_ = 0;
};

std::size_t evaluation_limit(const Budget& budget) {
    return static_cast<std::size_t>(std::max(0, budget.evaluations));
}

TreeResult run_batches(TreeRun& run, Evaluator& evaluator, const Budget& budget, std::size_t width,
                       const std::function<void(const TreeResult&)>& progress) {
    const std::size_t limit = evaluation_limit(budget);
    while (run.evaluations() < limit) {
        if (run.elapsed() >= budget.seconds) return run.finish(true);
        std::vector<Candidate> batch;
        while (batch.size() < std::min(width, limit - run.evaluations())) {
            auto next = run.select();
            if (!next) break;
            batch.push_back(std::move(*next));
        }
        if (batch.empty()) break;  // nothing left to propose
        const std::vector<Outcome> outcomes = evaluator.evaluate(batch);
        for (std::size_t i = 0; i < batch.size(); ++i) run.arrive(batch[i], outcomes.at(i));
        if (progress) progress(run.result());
    }
    return run.finish(false);
}

TreeResult run_streaming(TreeRun& run, Evaluator& evaluator, const Budget& budget,
                         std::size_t width,
                         const std::function<void(const TreeResult&)>& progress) {
    const std::size_t limit = evaluation_limit(budget);
    std::size_t in_flight = 0;
    bool stopped_by_time = false;
    for (;;) {
        if (!stopped_by_time && run.elapsed() >= budget.seconds) {
            stopped_by_time = true;
            in_flight -= std::min(in_flight, evaluator.cancel_pending());
        }
        while (!stopped_by_time && in_flight < width && run.evaluations() + in_flight < limit) {
            auto next = run.select();
            if (!next) break;
            evaluator.submit(*next);
            ++in_flight;
        }
        if (in_flight == 0) break;
        auto finished = evaluator.collect();
        if (!finished) break;  // the evaluator lost what was in flight
        --in_flight;
        run.arrive(finished->first, finished->second);
        if (progress) progress(run.result());
    }
    return run.finish(stopped_by_time);
}

}  // namespace

TreeResult run_tree_search(const TreeStart& start, Evaluator& evaluator,
                           const std::vector<Proposer*>& proposers, Judge& judge,
                           const NodeProfiler& profile, const Budget& budget,
                           const TreeOptions& options,
                           const std::function<void(const TreeResult&)>& progress) {
    TreeRun run(start, proposers, judge, profile, options);
    const std::size_t width = std::max<std::size_t>(1, options.in_flight);
    const std::size_t depth = evaluator.streaming_depth();
    return depth > 0 ? run_streaming(run, evaluator, budget, std::min(depth, width), progress)
                     : run_batches(run, evaluator, budget, width, progress);
}

}  // namespace optiml::search
