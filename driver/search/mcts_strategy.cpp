// Monte Carlo tree search over the parameters: from the root each level fixes one more
// parameter; selection follows the child of highest UCT among those with configurations left,
// expansion adds one unexplored value, and the rollout picks a random untaken configuration under
// the new node, half the time next to the node's best so far. The reward of a measurement is
// best-so-far / its time (0 when it failed), backed up along its path. A proposal counts as a visit
// at once (a virtual loss) so one batch spreads over the tree.
#include <algorithm>
#include <random>

#include "driver/search/detail/mcts_tree.h"
#include "driver/search/detail/strategies.h"

namespace optiml::search {
namespace {

constexpr double kExploration = 0.3;

class Mcts : public Strategy {
  public:
    Mcts(CandidatePool& pool, std::uint64_t seed) : pool_(pool), engine_(seed) {
        root_.members.resize(pool.size());
        for (std::size_t i = 0; i < pool.size(); ++i) root_.members[i] = i;
    }
    std::string name() const override { return "mcts"; }

    std::vector<Config> propose(std::size_t n) override {
        std::vector<Config> out;
        while (out.size() < n && pool_.remaining() > 0) {
            const std::size_t pick = rollout(*select_and_expand());
            for (MctsNode* on : path(pick)) on->visits += 1.0;
            take_into(pool_, pick, out);
            proposed_.push_back(pick);
        }
        return out;
    }

    void observe(const Config& config, const Outcome&) override {
        const auto i = pool_.find(config);
        if (!i) return;
        const double cost = pool_.cost(*i);
        best_ = std::min(best_, cost);
        const double reward = std::isfinite(cost) ? best_ / cost : 0.0;
        const bool ours = std::find(proposed_.begin(), proposed_.end(), *i) != proposed_.end();
        for (MctsNode* on : path(*i)) {
            if (!ours) on->visits += 1.0;
            on->reward += reward;
        }
    }

  private:
    // Half the time an untaken neighbour of the node's best measured configuration (kernels'
    // spaces are locally smooth), else any untaken configuration under the node.
    std::size_t rollout(const MctsNode& node) {
        std::vector<std::size_t> left;
        std::optional<std::size_t> best;
        for (const std::size_t i : node.members) {
            if (!pool_.taken(i)) left.push_back(i);
            if (std::isfinite(pool_.cost(i)) && (!best || pool_.cost(i) < pool_.cost(*best)))
                best = i;
        }
        if (best && std::bernoulli_distribution(0.5)(engine_)) {
            std::vector<std::size_t> near;
            for (const std::size_t i : pool_.neighbours(*best))
                if (!pool_.taken(i) &&
                    std::binary_search(node.members.begin(), node.members.end(), i))
                    near.push_back(i);
            if (!near.empty()) left = std::move(near);
        }
        return left[std::uniform_int_distribution<std::size_t>(0, left.size() - 1)(engine_)];
    }

    bool has_untaken(const MctsNode& node) const {
        return std::any_of(node.members.begin(), node.members.end(),
                           [&](std::size_t i) { return !pool_.taken(i); });
    }

    // Walks down by UCT until a node can be expanded (or a leaf), expanding there.
    MctsNode* select_and_expand() {
        MctsNode* node = &root_;
        const std::size_t depth = pool_.space().names.size();
        while (node->depth < depth) {
            // Values of the next parameter that lead to untaken configurations, not yet expanded.
            std::vector<std::size_t> fresh;
            for (const std::size_t i : node->members) {
                const std::size_t value = pool_.coordinates(i)[node->depth];
                if (!pool_.taken(i) && !node->child_for({node->depth, value}) &&
                    std::find(fresh.begin(), fresh.end(), value) == fresh.end())
                    fresh.push_back(value);
            }
            if (!fresh.empty()) {
                std::sort(fresh.begin(), fresh.end());
                const std::size_t value =
                    fresh[std::uniform_int_distribution<std::size_t>(0, fresh.size() - 1)(engine_)];
                return expand(*node, {node->depth, value});
            }
            MctsNode* chosen = nullptr;
            double chosen_score = -INFINITY;
            for (const auto& edge : node->edges) {
                if (!has_untaken(*edge.child)) continue;
                const double score = edge.child->uct(node->visits, kExploration);
                if (score > chosen_score) {
                    chosen_score = score;
                    chosen = edge.child.get();
                }
            }
            if (!chosen) return node;  // cannot happen while the node has untaken members
            node = chosen;
        }
        return node;
    }

    MctsNode* expand(MctsNode& parent, const Move& move) {
        auto child = std::make_unique<MctsNode>();
        child->depth = parent.depth + 1;
        for (const std::size_t i : parent.members)
            if (pool_.coordinates(i)[move.parameter] == move.value) child->members.push_back(i);
        parent.edges.push_back({move, std::move(child)});
        return parent.edges.back().child.get();
    }

    // The existing nodes from the root towards pool entry i.
    std::vector<MctsNode*> path(std::size_t i) {
        std::vector<MctsNode*> nodes{&root_};
        const auto& coordinates = pool_.coordinates(i);
        while (nodes.back()->depth < coordinates.size()) {
            const std::size_t depth = nodes.back()->depth;
            MctsNode* next = nodes.back()->child_for({depth, coordinates[depth]});
            if (!next) break;
            nodes.push_back(next);
        }
        return nodes;
    }

    CandidatePool& pool_;
    std::mt19937_64 engine_;
    MctsNode root_;
    std::vector<std::size_t> proposed_;
    double best_ = INFINITY;
};

}  // namespace

std::unique_ptr<Strategy> make_mcts(CandidatePool& pool, const StrategyOptions& options) {
    return std::make_unique<Mcts>(pool, options.seed);
}

}  // namespace optiml::search
